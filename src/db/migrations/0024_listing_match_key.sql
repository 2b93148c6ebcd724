-- One URL matcher (issue 35, docs/signals.md "How a URL is matched"): a request reaches its
-- listing by origin and path, without query or trailing slashes. match_key is the same key
-- packages/contracts/src/url-match.ts computes (a test holds them equal on both databases);
-- route_template marks a Bazaar template address ("/weather/:city"), matched by its host.
alter table listings
  add column match_key text not null generated always as (
    case when split_part(url_normalized, '?', 1) ~ '^https?://[^/]+/*$'
      then substring(url_normalized from '^https?://[^/?]+') || '/'
      else regexp_replace(split_part(url_normalized, '?', 1), '/+$', '') end) stored,
  add column route_template boolean not null generated always as (
    regexp_replace(split_part(url_normalized, '?', 1), '^https?://[^/]+', '') ~ '/(:[A-Za-z_][A-Za-z0-9_]*|\[[^]/]+\])(/|$)') stored;

create index listings_match_key_idx on listings (match_key);
create index listings_route_template_host_idx on listings (host) where route_template;

-- A listing's change can change which row any listing of its key answers, so siblings are
-- named by match key now, not by the very URL.
create or replace function listings_report_rows_changed() returns trigger language plpgsql as $$
declare
  ignored constant text[] := array['last_seen_at', 'next_probe_at', 'lease_owner', 'lease_until', 'updated_at', 'raw'];
begin
  if tg_op = 'UPDATE' then
    perform notify_report_rows(array(
      with changed as (
        select n.id, n.match_key as k, o.match_key as old_k from new_rows n join old_rows o on o.id = n.id
        where (to_jsonb(n) - ignored) is distinct from (to_jsonb(o) - ignored))
      select id from changed
      union select l.id from listings l where l.match_key in (select k from changed union select old_k from changed)));
  elsif tg_op = 'INSERT' then
    perform notify_report_rows(array(select l.id from listings l where l.match_key in (select match_key from new_rows)));
  else
    perform notify_report_rows(array(
      select id from old_rows union select l.id from listings l where l.match_key in (select match_key from old_rows)));
  end if;
  return null;
end $$;
alter function listings_report_rows_changed() set enable_nestloop = off;
