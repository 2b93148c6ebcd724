import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { ForensicsReport } from "@x402-lookout/contracts/preflight/schemas";
import { roundUsdc } from "../../lib/money.js";
import { viewOf } from "../evidence/index.js";
import { decoyProbability } from "./decoy-probability.js";
import { uptimePct as pct } from "./uptime-pct.js";
import { vantagesOf } from "./forensics-vantages.js";
import { catalogTotals, history, liveHistory, type CatalogTotals, type History } from "./forensics-history.js";
import { forensicsDelivery } from "./delivery-view.js";
import { evidenceOf, metadataOf, serviceAgeHours, type Subject } from "./preflight-report.js";
import { settlementsView } from "./settlements-view.js";

/** Everything preflight says, plus 7 days of history and the group picture (/spec#forensics). */
export async function forensicsReport(db: Kysely<Database>, s: Subject, now: Date, base: string): Promise<ForensicsReport> {
  const verdict = viewOf(s.fired, s.input, "forensics");
  const r = s.row;
  // An uncatalogued URL has no monitoring history and no group: its live probe alone, nulls, zero group sizes.
  const [h, totals]: [History, CatalogTotals | null] = r ? [await history(db, r.id, now), null] : [liveHistory(s.live ?? null, now), await catalogTotals(db)];
  const g = s.context?.group;
  const decoy = decoyProbability(s.input, verdict);
  const probes7d = s.input.probes7d;
  const healthy7d = s.input.healthy7d;
  const evidence = evidenceOf(s, verdict, now);
  const metadata = metadataOf(s, verdict);
  return {
    ...verdict,
    metadata,
    observed_at: now.toISOString(),
    decoy_probability: decoy,
    vantages: r ? await vantagesOf(db, r.id, now) : [],
    uptime: {
      probes_7d: probes7d,
      healthy_7d: healthy7d,
      errors_7d: probes7d - healthy7d,
      // Uptime is the monitoring history's, as metadata says it: none from a live probe alone.
      uptime_7d_pct: r ? pct(healthy7d, probes7d) : null,
      uptime_1h_pct: metadata.uptime_1h_pct,
      avg_latency_1h_ms: s.input.avgLatency1hMs,
      hourly: h.hourly,
    },
    latency: latencyOf(r),
    status_codes: h.statusCodes,
    concentration: {
      group_size: g?.effective_group_size ?? 0,
      raw_group_size: g?.raw_group_size ?? 0,
      effective_group_size: g?.effective_group_size ?? 0,
      catalog_total: g?.effective_catalog_total ?? totals?.effective_catalog_total ?? 0,
      raw_catalog_total: g?.raw_catalog_total ?? totals?.raw_catalog_total ?? 0,
      effective_catalog_total: g?.effective_catalog_total ?? totals?.effective_catalog_total ?? 0,
      concentration_pct: g?.concentration_pct ?? null,
      wildcard_402_detected: s.input.wildcard402,
      spa_fallback_detected: s.input.spaFallback,
      effective_count_basis: metadata.effective_count_basis,
      group_median_price_usdc: roundUsdc(g?.group_median_price_usdc),
      group_p90_price_usdc: roundUsdc(g?.group_p90_price_usdc),
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
      settlements: settlementsView(r ?? null, now),
    },
    delivery: await forensicsDelivery(db, r ?? null, base),
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
