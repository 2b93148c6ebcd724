-- Each API process keeps the report rows it has read (listing + service + snapshot + host
-- checks, src/services/signals/listing-row.ts) in memory and drops one when the database says
-- it changed (docs/decisions/0012-report-rows-cached-per-process.md). These triggers say so: at
-- commit, channel 'report_rows' carries the ids of the listings whose report row a statement
-- changed, comma-separated, 400 to a notification (a payload holds at most 8,000 bytes); '*'
-- means "anything may have changed" (TRUNCATE).
--
-- Columns that no report reads and that change on every cycle (leases, schedules, the verdict
-- columns, last_seen_at) are compared away, so a probe claim or a catalog poll that changes
-- nothing a report shows evicts nothing. A column added later counts as read until it is listed
-- here.
create function notify_report_rows(ids bigint[]) returns void language plpgsql as $$
declare
  part text;
begin
  for part in
    select string_agg(id::text, ',') from (
      select id, (row_number() over (order by id) - 1) / 400 as chunk from (select distinct unnest(ids) as id) d
    ) c group by chunk
  loop
    perform pg_notify('report_rows', part);
  end loop;
end $$;

create function notify_report_rows_all() returns trigger language plpgsql as $$
begin
  perform pg_notify('report_rows', '*');
  return null;
end $$;

-- listings: a changed listing and every listing with the same normalized URL (the lookup picks
-- one of them, so a sibling's change can change which row a URL reads).
create function listings_report_rows_changed() returns trigger language plpgsql as $$
declare
  ignored constant text[] := array['last_seen_at', 'next_probe_at', 'lease_owner', 'lease_until', 'updated_at', 'raw'];
begin
  if tg_op = 'UPDATE' then
    perform notify_report_rows(array(
      with changed as (
        select n.id, n.url_normalized as url, o.url_normalized as old_url from new_rows n join old_rows o on o.id = n.id
        where (to_jsonb(n) - ignored) is distinct from (to_jsonb(o) - ignored))
      select id from changed
      union select l.id from listings l where l.url_normalized in (select url from changed union select old_url from changed)));
  elsif tg_op = 'INSERT' then
    perform notify_report_rows(array(select l.id from listings l where l.url_normalized in (select url_normalized from new_rows)));
  else
    perform notify_report_rows(array(
      select id from old_rows union select l.id from listings l where l.url_normalized in (select url_normalized from old_rows)));
  end if;
  return null;
end $$;

create function signal_snapshots_report_rows_changed() returns trigger language plpgsql as $$
declare
  ignored constant text[] := array['computed_at', 'warnings', 'critical', 'blacklist_reasons', 'delist_reasons', 'flagged_since', 'risk_score'];
begin
  if tg_op = 'UPDATE' then
    perform notify_report_rows(array(
      select n.listing_id from new_rows n join old_rows o on o.listing_id = n.listing_id
      where (to_jsonb(n) - ignored) is distinct from (to_jsonb(o) - ignored)));
  elsif tg_op = 'INSERT' then
    perform notify_report_rows(array(select listing_id from new_rows));
  else
    perform notify_report_rows(array(select listing_id from old_rows));
  end if;
  return null;
end $$;

-- host_checks: every listing on a changed host.
create function host_checks_report_rows_changed() returns trigger language plpgsql as $$
declare
  ignored constant text[] := array['next_check_at', 'lease_owner', 'lease_until', 'last_error', 'updated_at'];
begin
  if tg_op = 'UPDATE' then
    perform notify_report_rows(array(
      select l.id from listings l where l.host in (
        select n.host from new_rows n join old_rows o on o.host = n.host where (to_jsonb(n) - ignored) is distinct from (to_jsonb(o) - ignored))));
  elsif tg_op = 'INSERT' then
    perform notify_report_rows(array(select l.id from listings l where l.host in (select host from new_rows)));
  else
    perform notify_report_rows(array(select l.id from listings l where l.host in (select host from old_rows)));
  end if;
  return null;
end $$;

-- services: every listing of a renamed service (a new service has no listings yet).
create function services_report_rows_changed() returns trigger language plpgsql as $$
declare
  ignored constant text[] := array['last_seen_at', 'updated_at', 'origin'];
begin
  perform notify_report_rows(array(
    select l.id from listings l where l.service_id in (
      select n.service_id from new_rows n join old_rows o on o.service_id = n.service_id
      where (to_jsonb(n) - ignored) is distinct from (to_jsonb(o) - ignored))));
  return null;
end $$;

-- Each table's triggers: one per event, as transition tables require.
do $$
declare
  t text;
begin
  foreach t in array array['listings', 'signal_snapshots', 'host_checks'] loop
    execute format('create trigger %1$s_report_rows_inserted after insert on %1$s referencing new table as new_rows
      for each statement execute function %1$s_report_rows_changed()', t);
    execute format('create trigger %1$s_report_rows_updated after update on %1$s referencing old table as old_rows new table as new_rows
      for each statement execute function %1$s_report_rows_changed()', t);
    execute format('create trigger %1$s_report_rows_deleted after delete on %1$s referencing old table as old_rows
      for each statement execute function %1$s_report_rows_changed()', t);
    execute format('create trigger %1$s_report_rows_truncated after truncate on %1$s
      for each statement execute function notify_report_rows_all()', t);
  end loop;
end $$;

create trigger services_report_rows_updated after update on services referencing old table as old_rows new table as new_rows
  for each statement execute function services_report_rows_changed();
create trigger services_report_rows_truncated after truncate on services
  for each statement execute function notify_report_rows_all();
