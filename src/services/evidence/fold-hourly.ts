import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { probeValues, type ProbeRow } from "./insert-probes.js";

/**
 * Adds imported probes to the hourly rollups, so imported history counts in 7-day signals even
 * after its raw rows age out. Counts and sums add up; the latency histogram (sparse
 * [bin, count, ...] of src/db/latency-histogram.ts, bins from latency_bin()) and the status
 * counts are merged with the stored ones bin by bin and code by code. The last price of an hour
 * is taken from the newest raw probe of that hour with a price, which includes the imported
 * ones (inserted by the previous statement).
 */
export async function foldIntoHourly(db: Kysely<Database>, rows: readonly ProbeRow[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    with p as (
      select v.listing_id, date_trunc('hour', v.probed_at, 'UTC') as bucket, v.outcome, v.status_code, v.latency_ms, v.price_usdc
      from (values ${probeValues(rows)}) as v(listing_id, probed_at, outcome, status_code, error_kind, latency_ms, price_usdc)
      -- Refused imports are kept raw but judged by no bucket, as the rollup does (decision 0037).
      where v.outcome in ('healthy', 'error')
    ),
    keys as (select distinct listing_id, bucket from p),
    stored as (select h.* from probe_hourly as h join keys as k using (listing_id, bucket)),
    totals as (
      select listing_id, bucket,
             count(*)::int as probes,
             (count(*) filter (where outcome = 'healthy'))::int as healthy,
             (count(*) filter (where outcome = 'error'))::int as errors,
             count(latency_ms)::int as latency_count,
             coalesce(sum(latency_ms), 0)::bigint as latency_sum_ms,
             max(latency_ms) as latency_max_ms,
             min(price_usdc) as price_usdc_min,
             max(price_usdc) as price_usdc_max
      from p
      group by listing_id, bucket
    ),
    bins as (
      select listing_id, bucket, bin, sum(n)::int as n
      from (
        select listing_id, bucket, latency_bin(latency_ms) as bin, 1 as n from p where latency_ms is not null
        union all
        select s.listing_id, s.bucket, s.latency_hist[2 * i - 1], s.latency_hist[2 * i]
        from stored as s cross join lateral generate_series(1, cardinality(s.latency_hist) / 2) as i
      ) as b
      group by listing_id, bucket, bin
    ),
    hists as (
      select listing_id, bucket, array_agg(v order by bin, k) as latency_hist
      from bins cross join lateral (values (1, bin), (2, n)) as pair(k, v)
      group by listing_id, bucket
    ),
    codes as (
      select listing_id, bucket, jsonb_object_agg(code, n) as status_counts
      from (
        select listing_id, bucket, code, sum(n)::int as n
        from (
          select listing_id, bucket, coalesce(status_code::text, 'network_error') as code, 1 as n from p
          union all
          select s.listing_id, s.bucket, e.key, e.value::int from stored as s cross join lateral jsonb_each_text(s.status_counts) as e
        ) as c
        group by listing_id, bucket, code
      ) as c2
      group by listing_id, bucket
    ),
    last_price as (
      select k.listing_id, k.bucket,
             (select r.price_usdc from probes as r
              where r.listing_id = k.listing_id and r.probed_at >= k.bucket and r.probed_at < k.bucket + interval '1 hour'
                and r.price_usdc is not null
              order by r.probed_at desc limit 1) as price_usdc_last
      from keys as k
    )
    insert into probe_hourly (
      listing_id, bucket, probes, healthy, errors, latency_count, latency_sum_ms, latency_max_ms,
      latency_hist, status_counts, price_usdc_last, price_usdc_min, price_usdc_max
    )
    select t.listing_id, t.bucket, t.probes, t.healthy, t.errors, t.latency_count, t.latency_sum_ms, t.latency_max_ms,
           coalesce(h.latency_hist, '{}'), coalesce(c.status_counts, '{}'), lp.price_usdc_last, t.price_usdc_min, t.price_usdc_max
    from totals as t
    left join hists as h using (listing_id, bucket)
    left join codes as c using (listing_id, bucket)
    left join last_price as lp using (listing_id, bucket)
    on conflict (listing_id, bucket) do update set
      probes = probe_hourly.probes + excluded.probes,
      healthy = probe_hourly.healthy + excluded.healthy,
      errors = probe_hourly.errors + excluded.errors,
      latency_count = probe_hourly.latency_count + excluded.latency_count,
      latency_sum_ms = probe_hourly.latency_sum_ms + excluded.latency_sum_ms,
      latency_max_ms = greatest(probe_hourly.latency_max_ms, excluded.latency_max_ms),
      latency_hist = excluded.latency_hist,
      status_counts = excluded.status_counts,
      price_usdc_last = coalesce(excluded.price_usdc_last, probe_hourly.price_usdc_last),
      price_usdc_min = least(probe_hourly.price_usdc_min, excluded.price_usdc_min),
      price_usdc_max = greatest(probe_hourly.price_usdc_max, excluded.price_usdc_max)`.execute(db);
}
