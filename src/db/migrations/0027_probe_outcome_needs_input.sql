-- A probe outcome beside healthy, error, blocked and unchallenged (decision 0046): `needs_input`,
-- a 400 or 422 without an x402 challenge. The endpoint answered, but it validates input before
-- it quotes; it counts in no uptime, error count, fail streak, latency or zombie count.

-- The wider check holds for every stored row: added unvalidated and validated after (0025 did the same).
alter table probes drop constraint probes_outcome_check;
alter table probes add constraint probes_outcome_check
  check (outcome in ('healthy', 'error', 'blocked', 'unchallenged', 'needs_input')) not valid;
alter table probes validate constraint probes_outcome_check;

alter table signal_snapshots drop constraint signal_snapshots_last_outcome_check;
alter table signal_snapshots add constraint signal_snapshots_last_outcome_check
  check (last_outcome in ('healthy', 'error', 'unchallenged', 'needs_input'));

alter table signal_snapshots
  add column needs_input_1h integer not null default 0 check (needs_input_1h >= 0);

-- 400 and 422 answers stored as errors before this migration: reclassified, and taken back out of
-- the hourly buckets their raw rows still cover (counts, status codes, latency sum and histogram;
-- the bucket's exact maximum cannot be undone and stays). Older buckets keep them until they age out.
create temporary table needs_input_0027 on commit drop as
  select listing_id, date_trunc('hour', probed_at, 'UTC') as bucket, status_code, latency_ms
  from probes
  where outcome = 'error' and status_code in (400, 422);
create temporary table needs_input_totals_0027 on commit drop as
  select listing_id, bucket, count(*)::int as n, count(latency_ms)::int as latency_n, coalesce(sum(latency_ms), 0)::bigint as latency_sum,
         count(*) filter (where status_code = 400)::int as n400, count(*) filter (where status_code = 422)::int as n422
  from needs_input_0027
  group by 1, 2;

delete from probe_hourly as h
using needs_input_totals_0027 as r
where h.listing_id = r.listing_id and h.bucket = r.bucket and h.probes = r.n and h.errors = r.n;

-- The histogram's bins less the reclassified probes' bins (pairs [bin, count, ...], a bin left empty dropped).
create temporary table needs_input_hist_0027 on commit drop as
  select h.listing_id, h.bucket,
         coalesce(array_agg(v order by bin, k) filter (where v is not null), '{}') as latency_hist
  from probe_hourly as h
  join needs_input_totals_0027 as r using (listing_id, bucket)
  left join lateral (
    select s.bin, s.n - coalesce(x.n, 0) as n
    from (select h.latency_hist[2 * i - 1] as bin, h.latency_hist[2 * i] as n
          from generate_series(1, cardinality(h.latency_hist) / 2) as i) as s
    left join (select latency_bin(latency_ms) as bin, count(*)::int as n
               from needs_input_0027 as p
               where p.listing_id = h.listing_id and p.bucket = h.bucket and p.latency_ms is not null
               group by 1) as x using (bin)
    where s.n - coalesce(x.n, 0) > 0
  ) as b on true
  left join lateral (values (1, b.bin), (2, b.n)) as pair(k, v) on b.bin is not null
  where h.errors >= r.n
  group by h.listing_id, h.bucket;

update probe_hourly as h
set probes = h.probes - r.n,
    errors = h.errors - r.n,
    latency_count = greatest(h.latency_count - r.latency_n, 0),
    latency_sum_ms = greatest(h.latency_sum_ms - r.latency_sum, 0),
    latency_hist = nh.latency_hist,
    status_counts = (h.status_counts - '400' - '422')
      || case when coalesce((h.status_counts ->> '400')::int, 0) > r.n400
              then jsonb_build_object('400', (h.status_counts ->> '400')::int - r.n400) else '{}'::jsonb end
      || case when coalesce((h.status_counts ->> '422')::int, 0) > r.n422
              then jsonb_build_object('422', (h.status_counts ->> '422')::int - r.n422) else '{}'::jsonb end
from needs_input_totals_0027 as r, needs_input_hist_0027 as nh
where h.listing_id = r.listing_id and h.bucket = r.bucket and nh.listing_id = r.listing_id and nh.bucket = r.bucket and h.errors >= r.n;

update probes set outcome = 'needs_input' where outcome = 'error' and status_code in (400, 422);
