-- A source whose CATALOG_URLS entry gains, loses or changes its `id=` while its URL stays keeps
-- its row (issue 35 item 5, decision 0038): the ingester renames the row in place, and its polls
-- and its listing rows follow the new id, so nothing it lists waits out the grace period.
alter table catalog_polls
  drop constraint catalog_polls_source_id_fkey,
  add constraint catalog_polls_source_id_fkey foreign key (source_id) references catalog_sources (id) on delete cascade on update cascade;
alter table listing_sources
  drop constraint listing_sources_source_id_fkey,
  add constraint listing_sources_source_id_fkey foreign key (source_id) references catalog_sources (id) on delete cascade on update cascade;
