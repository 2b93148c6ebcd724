import { sql, type Kysely } from "kysely";
import { BIN_COUNT, binValue } from "./latency-histogram.js";
import { hourBucket } from "./rollup.js";
import { observedQuotes } from "../quotes/index.js";
import type { Database } from "../../db/schema.js";
import { BUCKETS_48H, BUCKETS_7D, FAIL_STREAK_CAP, WINDOW_1H_MS, WINDOW_30M_MS } from "./constants.js";

const HOUR = 3_600_000;
const BIN_VALUES = Array.from({ length: BIN_COUNT }, (_, bin) => binValue(bin));
const iso = (d: Date) => d.toISOString();

/**
 * One statement per batch of listings: the numeric evidence of signal_snapshots. Windows:
 * 30 min and 1 h from raw probes, (now - window, now]; 48 h and 7 d from hourly buckets, the
 * open hour included (48 and 168 buckets). Percentiles merge the 7 days of sparse histograms
 * in SQL and take the bin holding the nearest-rank sample, exactly as percentile() in
 * src/services/evidence/latency-histogram.ts does; the maximum is the exact stored maximum. Columns the signal
 * engine owns (warnings, critical, reasons, risk_score, flagged_since) are never written here;
 * `detail` is merged key by key, so its other keys survive. detail.quote is the listing's quote
 * evidence (quotes/observed.ts), read in one statement before. Counts, latencies, the last
 * probe and the fail streak judge probes that reached the endpoint (decision 0037): a blocked one
 * (the SSRF guard refused it) only moves last_refused_at; an unchallenged one (unchallenged_1h)
 * or a needs_input one (needs_input_1h, decision 0046) is the last probe, but neither healthy nor a failure.
 */
export async function upsertEvidence(db: Kysely<Database>, listingIds: readonly number[], now: Date): Promise<number> {
  if (listingIds.length === 0) return 0;
  const quotes = await observedQuotes(db, listingIds, now);
  const quoteJson = [...listingIds].map((id) => JSON.stringify(quotes.get(id) ?? null));
  const ids = sql`${[...listingIds]}::bigint[]`;
  const t30 = iso(new Date(now.getTime() - WINDOW_30M_MS));
  const t1h = iso(new Date(now.getTime() - WINDOW_1H_MS));
  const open = hourBucket(now).getTime();
  const b48 = iso(new Date(open - (BUCKETS_48H - 1) * HOUR));
  const b7d = iso(new Date(open - (BUCKETS_7D - 1) * HOUR));
  const at = iso(now);
  const result = await sql`
    with ids as (select id as listing_id from listings where id = any(${ids})),
    quotes as (select * from unnest(${ids}, ${quoteJson}::text[]) as q(listing_id, quote)),
    recent as (
      select listing_id,
             (count(*) filter (where probed_at > ${t30}::timestamptz and outcome in ('healthy', 'error')))::int as probes_30m,
             (count(*) filter (where probed_at > ${t30}::timestamptz and outcome = 'healthy'))::int as healthy_30m,
             (count(*) filter (where probed_at > ${t30}::timestamptz and outcome = 'error'))::int as errors_30m,
             (count(*) filter (where outcome in ('healthy', 'error')))::int as probes_1h,
             (count(*) filter (where outcome = 'healthy'))::int as healthy_1h,
             (count(*) filter (where outcome = 'unchallenged'))::int as unchallenged_1h,
             (count(*) filter (where outcome = 'needs_input'))::int as needs_input_1h,
             round(avg(latency_ms) filter (where outcome in ('healthy', 'error')))::int as avg_latency_1h_ms
      from probes
      where listing_id = any(${ids}) and probed_at > ${t1h}::timestamptz and probed_at <= ${at}::timestamptz
      group by listing_id
    ),
    last_probe as (
      select distinct on (listing_id) listing_id, probed_at, outcome, status_code
      from probes where listing_id = any(${ids}) and probed_at <= ${at}::timestamptz and outcome <> 'blocked'
      order by listing_id, probed_at desc
    ),
    last_refused as (
      select listing_id, max(probed_at) as refused_at
      from probes where listing_id = any(${ids}) and probed_at <= ${at}::timestamptz and outcome = 'blocked'
      group by listing_id
    ),
    -- The run of failed probes up to the latest, read from the newest few (an index range each);
    -- any answer ends it (an unchallenged 2xx and a needs_input 400/422 too), refused probes are skipped.
    streak as (
      select ids.listing_id,
             coalesce(array_position(t.failed, false) - 1, cardinality(t.failed), 0)::int as fail_streak
      from ids cross join lateral (
        select array_agg(outcome = 'error' order by probed_at desc) as failed from (
          select outcome, probed_at from probes
          where listing_id = ids.listing_id and probed_at <= ${at}::timestamptz and outcome <> 'blocked'
          order by probed_at desc limit ${FAIL_STREAK_CAP}
        ) as newest
      ) as t
    ),
    last_price as (
      select distinct on (listing_id) listing_id, probed_at, price_usdc, challenge_version
      from probes where listing_id = any(${ids}) and price_usdc is not null and probed_at <= ${at}::timestamptz
      order by listing_id, probed_at desc
    ),
    hourly as (
      select listing_id,
             sum(probes)::int as probes_7d,
             sum(healthy)::int as healthy_7d,
             (sum(probes) filter (where bucket >= ${b48}::timestamptz))::int as probes_48h,
             (sum(healthy) filter (where bucket >= ${b48}::timestamptz))::int as healthy_48h,
             max(latency_max_ms) as max_latency_7d_ms
      from probe_hourly
      where listing_id = any(${ids}) and bucket >= ${b7d}::timestamptz and bucket <= ${at}::timestamptz
      group by listing_id
    ),
    bins as (
      select h.listing_id, h.latency_hist[2 * i - 1] as bin, sum(h.latency_hist[2 * i])::bigint as n
      from probe_hourly as h
      cross join lateral generate_series(1, cardinality(h.latency_hist) / 2) as i
      where h.listing_id = any(${ids}) and h.bucket >= ${b7d}::timestamptz and h.bucket <= ${at}::timestamptz
      group by 1, 2
    ),
    cumulative as (
      select listing_id, bin,
             sum(n) over (partition by listing_id order by bin) as c,
             sum(n) over (partition by listing_id) as total
      from bins
    ),
    ranks as (
      select listing_id,
             min(bin) filter (where c >= greatest(1, ceil(0.50 * total - 1e-9))) as b50,
             min(bin) filter (where c >= greatest(1, ceil(0.90 * total - 1e-9))) as b90,
             min(bin) filter (where c >= greatest(1, ceil(0.99 * total - 1e-9))) as b99
      from cumulative
      group by listing_id
    )
    insert into signal_snapshots (
      listing_id, computed_at, probes_30m, healthy_30m, errors_30m, probes_1h, healthy_1h, probes_7d, healthy_7d,
      uptime_1h_pct, uptime_48h_pct, uptime_7d_pct, avg_latency_1h_ms,
      p50_latency_7d_ms, p90_latency_7d_ms, p99_latency_7d_ms, max_latency_7d_ms,
      last_probe_at, last_outcome, last_status_code, fail_streak, unchallenged_1h, needs_input_1h, last_refused_at, detail
    )
    select ids.listing_id, ${at}::timestamptz,
           coalesce(r.probes_30m, 0), coalesce(r.healthy_30m, 0), coalesce(r.errors_30m, 0),
           coalesce(r.probes_1h, 0), coalesce(r.healthy_1h, 0),
           coalesce(h.probes_7d, 0), coalesce(h.healthy_7d, 0),
           case when r.probes_1h > 0 then (100.0 * r.healthy_1h / r.probes_1h)::float8 end,
           case when h.probes_48h > 0 then (100.0 * h.healthy_48h / h.probes_48h)::float8 end,
           case when h.probes_7d > 0 then (100.0 * h.healthy_7d / h.probes_7d)::float8 end,
           r.avg_latency_1h_ms,
           (${BIN_VALUES}::int[])[k.b50 + 1], (${BIN_VALUES}::int[])[k.b90 + 1], (${BIN_VALUES}::int[])[k.b99 + 1],
           h.max_latency_7d_ms,
           lp.probed_at, lp.outcome, lp.status_code, coalesce(st.fail_streak, 0), coalesce(r.unchallenged_1h, 0),
           coalesce(r.needs_input_1h, 0), rf.refused_at,
           case when pr.listing_id is null then '{}'::jsonb
                else jsonb_build_object('last_price_usdc', pr.price_usdc::text, 'last_challenge_version', pr.challenge_version,
                                        'last_price_at', to_char(pr.probed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) end
             || jsonb_build_object('quote', qu.quote::jsonb)
    from ids
    left join recent as r using (listing_id)
    left join hourly as h using (listing_id)
    left join ranks as k using (listing_id)
    left join last_probe as lp using (listing_id)
    left join last_refused as rf using (listing_id)
    left join last_price as pr using (listing_id)
    left join streak as st using (listing_id)
    left join quotes as qu using (listing_id)
    -- Key order, as every writer of signal_snapshots locks its rows (verdicts.ts), so none deadlock.
    order by listing_id
    on conflict (listing_id) do update set
      computed_at = excluded.computed_at,
      probes_30m = excluded.probes_30m, healthy_30m = excluded.healthy_30m, errors_30m = excluded.errors_30m,
      probes_1h = excluded.probes_1h, healthy_1h = excluded.healthy_1h,
      probes_7d = excluded.probes_7d, healthy_7d = excluded.healthy_7d,
      uptime_1h_pct = excluded.uptime_1h_pct, uptime_48h_pct = excluded.uptime_48h_pct, uptime_7d_pct = excluded.uptime_7d_pct,
      avg_latency_1h_ms = excluded.avg_latency_1h_ms,
      p50_latency_7d_ms = excluded.p50_latency_7d_ms, p90_latency_7d_ms = excluded.p90_latency_7d_ms,
      p99_latency_7d_ms = excluded.p99_latency_7d_ms, max_latency_7d_ms = excluded.max_latency_7d_ms,
      -- Raw probes live hours; the last one seen stays until a newer one exists.
      last_probe_at = coalesce(excluded.last_probe_at, signal_snapshots.last_probe_at),
      last_outcome = case when excluded.last_probe_at is null then signal_snapshots.last_outcome else excluded.last_outcome end,
      last_status_code = case when excluded.last_probe_at is null then signal_snapshots.last_status_code else excluded.last_status_code end,
      fail_streak = case when excluded.last_probe_at is null then signal_snapshots.fail_streak else excluded.fail_streak end,
      unchallenged_1h = excluded.unchallenged_1h,
      needs_input_1h = excluded.needs_input_1h,
      last_refused_at = coalesce(excluded.last_refused_at, signal_snapshots.last_refused_at),
      detail = signal_snapshots.detail || excluded.detail`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
