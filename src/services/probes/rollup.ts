import { sql, type Kysely } from "kysely";
import { hourBucket } from "../../db/rollup.js";
import type { Database } from "../../db/schema.js";

/**
 * Recomputes the hourly buckets of the given listings from the hour holding `since` onwards,
 * whole, from raw probes (the SQL of src/db/rollup.ts restricted to some listings, so a write
 * batch re-rolls only what it touched). Recomputing instead of adding increments makes it
 * idempotent: a retried or repeated batch cannot count a probe twice. Raw probes outlive the
 * open hour by hours (RAW_PROBE_RETENTION_MS), so every bucket re-rolled here is complete.
 */
export async function rollupListings(db: Kysely<Database>, listingIds: readonly number[], since: Date): Promise<number> {
  if (listingIds.length === 0) return 0;
  const result = await sql`
    with p as (
      select listing_id, date_trunc('hour', probed_at, 'UTC') as bucket,
             probed_at, outcome, status_code, latency_ms, price_usdc
      from probes
      where listing_id = any(${[...listingIds]}::bigint[]) and probed_at >= ${hourBucket(since).toISOString()}::timestamptz
    ),
    totals as (
      select listing_id, bucket,
             count(*)::int as probes,
             (count(*) filter (where outcome = 'healthy'))::int as healthy,
             (count(*) filter (where outcome = 'error'))::int as errors,
             count(latency_ms)::int as latency_count,
             coalesce(sum(latency_ms), 0)::bigint as latency_sum_ms,
             max(latency_ms) as latency_max_ms,
             (array_agg(price_usdc order by probed_at desc) filter (where price_usdc is not null))[1] as price_usdc_last,
             min(price_usdc) as price_usdc_min,
             max(price_usdc) as price_usdc_max
      from p
      group by listing_id, bucket
    ),
    bins as (
      select listing_id, bucket, latency_bin(latency_ms) as bin, count(*)::int as n
      from p
      where latency_ms is not null
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
        select listing_id, bucket, coalesce(status_code::text, 'network_error') as code, count(*)::int as n
        from p
        group by listing_id, bucket, code
      ) as c
      group by listing_id, bucket
    )
    insert into probe_hourly (
      listing_id, bucket, probes, healthy, errors, latency_count, latency_sum_ms, latency_max_ms,
      latency_hist, status_counts, price_usdc_last, price_usdc_min, price_usdc_max
    )
    select t.listing_id, t.bucket, t.probes, t.healthy, t.errors, t.latency_count, t.latency_sum_ms,
           t.latency_max_ms, coalesce(h.latency_hist, '{}'), coalesce(c.status_counts, '{}'),
           t.price_usdc_last, t.price_usdc_min, t.price_usdc_max
    from totals as t
    left join hists as h using (listing_id, bucket)
    left join codes as c using (listing_id, bucket)
    on conflict (listing_id, bucket) do update set
      probes = excluded.probes,
      healthy = excluded.healthy,
      errors = excluded.errors,
      latency_count = excluded.latency_count,
      latency_sum_ms = excluded.latency_sum_ms,
      latency_max_ms = excluded.latency_max_ms,
      latency_hist = excluded.latency_hist,
      status_counts = excluded.status_counts,
      price_usdc_last = excluded.price_usdc_last,
      price_usdc_min = excluded.price_usdc_min,
      price_usdc_max = excluded.price_usdc_max`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
