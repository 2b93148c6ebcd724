import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { ForensicsReport } from "../../contracts/preflight/schemas.js";
import { HOUR } from "../signals/constants.js";
import { evaluate } from "../signals/engine.js";
import { decoyProbability } from "./decoy-probability.js";
import { evidenceOf, metadataOf, serviceAgeHours, type Subject } from "./preflight-report.js";

const HOURS_7D = 168;
const pct = (healthy: number, probes: number) => (probes > 0 ? Math.round((100 * healthy) / probes) : null);

interface History {
  hourly: ForensicsReport["uptime"]["hourly"];
  statusCodes: Record<string, number>;
}

/** The 168 hourly buckets of the last 7 days (gaps as zero) and status-code counts, from one read of the hourly rollup. */
async function history(db: Kysely<Database>, listingId: number, now: Date): Promise<History> {
  const open = Math.floor(now.getTime() / HOUR) * HOUR;
  const since = new Date(open - (HOURS_7D - 1) * HOUR);
  // One row holding the buckets as a JSON array: parsed once, not a row and its columns at a time.
  const { rows } = await sql<{ buckets: string | null }>`
    select json_agg(json_build_array(extract(epoch from bucket) * 1000, probes, healthy, latency_count, latency_sum_ms, status_counts))::text as buckets
    from probe_hourly where listing_id = ${listingId} and bucket >= ${since}`.execute(db);
  type Bucket = [at: number, probes: number, healthy: number, latencyCount: number, latencySumMs: number, statusCounts: Record<string, number>];
  const buckets = JSON.parse(rows[0]?.buckets ?? "[]") as Bucket[];
  const byHour = new Map(buckets.map((b) => [b[0], b]));
  const hourly = Array.from({ length: HOURS_7D }, (_, i) => {
    const at = open - i * HOUR;
    const b = byHour.get(at);
    return {
      bucket: new Date(at).toISOString(),
      probes: b?.[1] ?? 0,
      healthy: b?.[2] ?? 0,
      avg_latency_ms: b && b[3] > 0 ? Math.round(b[4] / b[3]) : null,
    };
  });
  const codes = new Map<string, number>();
  for (const b of buckets) for (const [code, n] of Object.entries(b[5])) codes.set(code, (codes.get(code) ?? 0) + Number(n));
  return { hourly, statusCodes: Object.fromEntries([...codes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) };
}

/** Spec 2.6: everything preflight says, plus 7 days of history and the group picture. */
export async function forensicsReport(db: Kysely<Database>, s: Subject, now: Date): Promise<ForensicsReport> {
  const verdict = evaluate(s.input, now, "forensics");
  const r = s.row;
  const h: History = r ? await history(db, r.id, now) : { hourly: [], statusCodes: {} };
  const g = s.context?.group;
  const decoy = decoyProbability(s.input, verdict);
  const probes7d = s.input.probes7d;
  const healthy7d = s.input.healthy7d;
  const evidence = evidenceOf(s, verdict, now);
  return {
    ...verdict,
    metadata: metadataOf(s, verdict),
    observed_at: now.toISOString(),
    decoy_probability: decoy,
    uptime: {
      probes_7d: probes7d,
      healthy_7d: healthy7d,
      errors_7d: probes7d - healthy7d,
      uptime_7d_pct: pct(healthy7d, probes7d),
      uptime_1h_pct: r?.uptime_1h_pct === null || r?.uptime_1h_pct === undefined ? pct(s.input.healthy30m, s.input.probes30m) : Math.round(r.uptime_1h_pct),
      avg_latency_1h_ms: s.input.avgLatency1hMs,
      hourly: h.hourly,
    },
    latency: latencyOf(r),
    status_codes: h.statusCodes,
    concentration: {
      group_size: g?.effective_group_size ?? 0,
      raw_group_size: g?.raw_group_size ?? 0,
      effective_group_size: g?.effective_group_size ?? 0,
      catalog_total: g?.effective_catalog_total ?? 0,
      raw_catalog_total: g?.raw_catalog_total ?? 0,
      effective_catalog_total: g?.effective_catalog_total ?? 0,
      concentration_pct: g?.concentration_pct ?? null,
      wildcard_402_detected: s.input.wildcard402,
      spa_fallback_detected: s.input.spaFallback,
      effective_count_basis: metadataOf(s, verdict).effective_count_basis,
      group_median_price_usdc: g?.group_median_price_usdc ?? null,
      group_p90_price_usdc: g?.group_p90_price_usdc ?? null,
      price_ratio_to_median: s.input.priceRatioToMedian,
    },
    evidence: {
      probes_1h: evidence.probes_1h,
      healthy_1h: evidence.healthy_1h,
      probes_7d: probes7d,
      healthy_7d: healthy7d,
      errors_30m: evidence.errors_30m,
      price_amount_usdc: evidence.price_amount_usdc,
      service_age_hours: serviceAgeHours(s, now),
      concentration_pct: g?.concentration_pct ?? null,
      raw_concentration_group_size: g?.raw_group_size ?? null,
      effective_concentration_group_size: g?.effective_group_size ?? null,
      wildcard_402_detected: s.input.wildcard402,
      decoy_probability: decoy,
    },
  };
}

type LatencyRow = {
  p50_latency_7d_ms?: number | null;
  p90_latency_7d_ms?: number | null;
  p99_latency_7d_ms?: number | null;
  max_latency_7d_ms?: number | null;
};

/** Percentiles come from histogram buckets, whose bounds can pass the slowest probe seen: none is reported above max. */
export function latencyOf(r: LatencyRow | null | undefined) {
  const max = r?.max_latency_7d_ms ?? null;
  const capped = (v: number | null | undefined) => (v === null || v === undefined ? null : max === null ? v : Math.min(v, max));
  return { p50_ms: capped(r?.p50_latency_7d_ms), p90_ms: capped(r?.p90_latency_7d_ms), p99_ms: capped(r?.p99_latency_7d_ms), max_ms: max };
}
