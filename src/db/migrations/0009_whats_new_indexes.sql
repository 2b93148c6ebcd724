-- whats-new lists the newest additions and removals, newest first then by URL. A poll stamps
-- every listing it adds with the same first_seen_at, so without the URL in the index a page of
-- 200 would sort all of that poll's listings first.
create index listings_active_first_seen_url_idx on listings (first_seen_at desc, url_normalized) where is_active;
create index listings_inactive_deactivated_url_idx on listings (deactivated_at desc, url_normalized) where not is_active;
