import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

const HOUR = 3_600_000;

/** Start of the UTC hour holding `at`. */
export function hourBucket(at: Date): Date {
  return new Date(Math.floor(at.getTime() / HOUR) * HOUR);
}

/**
 * Rolls raw probes into probe_hourly for every UTC hour from the one holding `since` onwards,
 * in one SQL statement (the latency histogram uses latency_bin(), the SQL twin of binOf()).
 * Each bucket is recomputed whole from raw rows and upserted, so running it again, or while the
 * hour is still open, is safe. Call it with `since` inside the raw retention window: a bucket
 * whose raw probes were already deleted would be overwritten with what is left.
 * With `listingIds`, only those listings' buckets are rolled (the prober's write batches).
 * Only the probes uptime judges (healthy, error) are rolled: blocked and unchallenged ones
 * count in no bucket (decision 0037).
 * Returns the number of bucket rows written.
 */
export async function rollupProbes(db: Kysely<Database>, since: Date, listingIds?: readonly number[]): Promise<number> {
  const from = hourBucket(since).toISOString();
  const only = listingIds ? sql`listing_id = any(${[...listingIds]}::bigint[]) and` : sql``;
  const result = await sql`
    with p as (
      select listing_id, date_trunc('hour', probed_at, 'UTC') as bucket,
             probed_at, outcome, status_code, latency_ms, price_usdc
      from probes
      where ${only} probed_at >= ${from}::timestamptz and outcome in ('healthy', 'error')
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

/**
 * The buckets a write batch touched: those of `listingIds` from the hour holding `since`, whole,
 * from raw probes (raw probes outlive the open hour by hours, so every bucket re-rolled is
 * complete), so a retried or repeated batch cannot count a probe twice.
 */
export const rollupListings = (db: Kysely<Database>, listingIds: readonly number[], since: Date): Promise<number> =>
  listingIds.length === 0 ? Promise.resolve(0) : rollupProbes(db, since, listingIds);
