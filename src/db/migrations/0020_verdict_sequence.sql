-- The offline guard's verdict feed (decision 0022). Each listing's entry (the preflight view of its
-- stored verdict, ok / action / warnings, and the terms it is priced by) is written by the verdict
-- writer in the same statement as the verdict (src/services/evidence/verdict-write.ts), and gets a
-- new number from one sequence whenever it changes. A listing leaving the catalog leaves a
-- tombstone numbered from the same sequence, kept SNAPSHOT_LIMITS.deltaWindowHours (retention).
create sequence verdict_seq;

alter table signal_snapshots
  add column feed jsonb,
  add column feed_seq bigint,
  add column feed_at timestamptz;
-- Deltas read the entries above a number; HOT updates survive (evidence writes never change feed_seq).
create index signal_snapshots_feed_seq_idx on signal_snapshots (feed_seq) where feed_seq is not null;

create table verdict_removals (
  seq bigint primary key default nextval('verdict_seq'),
  listing_id bigint not null,
  url text not null,
  method text not null,
  removed_at timestamptz not null
);
create index verdict_removals_listing_idx on verdict_removals (listing_id, seq);
create index verdict_removals_removed_at_idx on verdict_removals (removed_at);

-- A sequence number is taken before its transaction commits, so numbers can commit out of order.
-- Every writer of numbers holds this advisory lock shared until it commits; a reader takes it
-- exclusively, so it reads only after every number handed out has committed (or rolled back).
-- The key is VERDICT_FEED_LOCK in src/db/read-models/verdict-feed.ts.

-- The entry leaves with its listing, in the catalog's own statement (deactivated or deleted).
create function listings_leave_verdict_feed() returns trigger language plpgsql as $$
declare
  gone bigint[];
begin
  if tg_op = 'UPDATE' then
    gone := array(select n.id from new_rows n join old_rows o on o.id = n.id where o.is_active and not n.is_active order by n.id);
  else
    gone := array(select o.id from old_rows o where o.is_active order by o.id);
  end if;
  -- Most updates of listings (leases, schedules, a poll's last_seen_at) remove nothing: no lock.
  if cardinality(gone) = 0 then
    return null;
  end if;
  perform pg_advisory_xact_lock_shared(4020402402022);
  if tg_op = 'UPDATE' then
    insert into verdict_removals (listing_id, url, method, removed_at)
    select n.id, n.url, n.method, coalesce(n.deactivated_at, statement_timestamp()) from new_rows n where n.id = any(gone) order by n.id;
  else
    insert into verdict_removals (listing_id, url, method, removed_at)
    select o.id, o.url, o.method, statement_timestamp() from old_rows o where o.id = any(gone) order by o.id;
  end if;
  return null;
end $$;
-- As the report-rows triggers (0016): a hash join of the transition tables, not a nested loop.
alter function listings_leave_verdict_feed() set enable_nestloop = off;

create trigger listings_verdict_feed_updated after update on listings referencing old table as old_rows new table as new_rows
  for each statement execute function listings_leave_verdict_feed();
create trigger listings_verdict_feed_deleted after delete on listings referencing old table as old_rows
  for each statement execute function listings_leave_verdict_feed();

-- Tombstones past the window are forgotten; the highest number forgotten is remembered, so a
-- `since` below it (whose deltas could no longer be complete) is refused.
create function verdict_removals_forgotten() returns trigger language plpgsql as $$
begin
  insert into app_state (key, value)
  select 'verdict_feed_forgotten_seq', to_jsonb(max(seq)) from old_rows having count(*) > 0
  on conflict (key) do update
    set value = to_jsonb(greatest((app_state.value #>> '{}')::bigint, (excluded.value #>> '{}')::bigint)), updated_at = now();
  return null;
end $$;

create trigger verdict_removals_deleted after delete on verdict_removals referencing old table as old_rows
  for each statement execute function verdict_removals_forgotten();
