import { sql, type RawBuilder } from "kysely";

/**
 * How rolled probes meet the stored bucket. replace: they are every raw row of their hours, so
 * the bucket is recomputed whole. add: they are new rows of hours whose older raw rows may be
 * gone, so they are added to it: counts and sums add up, the histogram merges bin by bin and the
 * status counts code by code, and the last price is the newest raw one of the hour.
 */
export type Merge = "replace" | "add";

// The stored buckets of the hours rolled, as more rows of histogram bins and status codes.
const STORED = {
  replace: { with: sql``, bins: sql``, codes: sql`` },
  add: {
    with: sql`keys as (select distinct listing_id, bucket from p),
      stored as (select h.* from probe_hourly as h join keys as k using (listing_id, bucket)),`,
    bins: sql`union all select s.listing_id, s.bucket, s.latency_hist[2 * i - 1], s.latency_hist[2 * i]
      from stored as s cross join lateral generate_series(1, cardinality(s.latency_hist) / 2) as i`,
    codes: sql`union all select s.listing_id, s.bucket, e.key, e.value::int from stored as s cross join lateral jsonb_each_text(s.status_counts) as e`,
  },
};

const LAST_PRICE = {
  replace: sql`t.price_usdc_last`,
  add: sql`(select r.price_usdc from probes as r
            where r.listing_id = t.listing_id and r.probed_at >= t.bucket and r.probed_at < t.bucket + interval '1 hour'
              and r.price_usdc is not null
            order by r.probed_at desc limit 1)`,
};

const ON_CONFLICT = {
  replace: sql`probes = excluded.probes, healthy = excluded.healthy, errors = excluded.errors,
    latency_count = excluded.latency_count, latency_sum_ms = excluded.latency_sum_ms, latency_max_ms = excluded.latency_max_ms,
    price_usdc_last = excluded.price_usdc_last, price_usdc_min = excluded.price_usdc_min, price_usdc_max = excluded.price_usdc_max`,
  add: sql`probes = probe_hourly.probes + excluded.probes, healthy = probe_hourly.healthy + excluded.healthy,
    errors = probe_hourly.errors + excluded.errors, latency_count = probe_hourly.latency_count + excluded.latency_count,
    latency_sum_ms = probe_hourly.latency_sum_ms + excluded.latency_sum_ms,
    latency_max_ms = greatest(probe_hourly.latency_max_ms, excluded.latency_max_ms),
    price_usdc_last = coalesce(excluded.price_usdc_last, probe_hourly.price_usdc_last),
    price_usdc_min = least(probe_hourly.price_usdc_min, excluded.price_usdc_min),
    price_usdc_max = greatest(probe_hourly.price_usdc_max, excluded.price_usdc_max)`,
};

/**
 * The one hourly rollup: `probes` (rows shaped as `probes`) into probe_hourly, one statement.
 * Only the probes uptime judges (healthy, error) are rolled: blocked, unchallenged (decision
 * 0037) and needs_input (0046) ones count in no bucket. The histogram is binned by latency_bin(), the SQL twin of binOf().
 */
export const rollupStatement = (probes: RawBuilder<unknown>, merge: Merge) => sql`
  with p as (
    select listing_id, date_trunc('hour', probed_at, 'UTC') as bucket, probed_at, outcome, status_code, latency_ms, price_usdc
    from (${probes}) as raw
    where outcome in ('healthy', 'error')
  ),
  ${STORED[merge].with}
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
    select listing_id, bucket, bin, sum(n)::int as n
    from (select listing_id, bucket, latency_bin(latency_ms) as bin, 1 as n from p where latency_ms is not null ${STORED[merge].bins}) as b
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
      from (select listing_id, bucket, coalesce(status_code::text, 'network_error') as code, 1 as n from p ${STORED[merge].codes}) as c
      group by listing_id, bucket, code
    ) as c2
    group by listing_id, bucket
  )
  insert into probe_hourly (
    listing_id, bucket, probes, healthy, errors, latency_count, latency_sum_ms, latency_max_ms,
    latency_hist, status_counts, price_usdc_last, price_usdc_min, price_usdc_max
  )
  select t.listing_id, t.bucket, t.probes, t.healthy, t.errors, t.latency_count, t.latency_sum_ms, t.latency_max_ms,
         coalesce(h.latency_hist, '{}'), coalesce(c.status_counts, '{}'), ${LAST_PRICE[merge]}, t.price_usdc_min, t.price_usdc_max
  from totals as t
  left join hists as h using (listing_id, bucket)
  left join codes as c using (listing_id, bucket)
  on conflict (listing_id, bucket) do update set
    ${ON_CONFLICT[merge]}, latency_hist = excluded.latency_hist, status_counts = excluded.status_counts`;
