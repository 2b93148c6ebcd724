import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { ForensicsReport } from "@x402-lookout/contracts/preflight/schemas";
import { HOUR } from "../signals/constants.js";
import type { GroupStats } from "../signals/group-context.js";
import type { LiveObservation } from "./live-observation.js";

const HOURS_7D = 168;

export interface History {
  hourly: ForensicsReport["uptime"]["hourly"];
  statusCodes: Record<string, number>;
}

type Bucket = [at: number, probes: number, healthy: number, latencyCount: number, latencySumMs: number, statusCounts: Record<string, number>];

/** The 168 hourly buckets of the last 7 days (gaps as zero) and status-code counts, from one read of the hourly rollup. */
export async function history(db: Kysely<Database>, listingId: number, now: Date): Promise<History> {
  const since = new Date(openHour(now) - (HOURS_7D - 1) * HOUR);
  // One row holding the buckets as a JSON array: parsed once, not a row and its columns at a time.
  const { rows } = await sql<{ buckets: string | null }>`
    select json_agg(json_build_array(extract(epoch from bucket) * 1000, probes, healthy, latency_count, latency_sum_ms, status_counts))::text as buckets
    from probe_hourly where listing_id = ${listingId} and bucket >= ${since}`.execute(db);
  return historyOf(JSON.parse(rows[0]?.buckets ?? "[]") as Bucket[], now);
}

/**
 * An uncatalogued URL's week: its live probe in the bucket of its hour, counted as the subject's
 * 1-hour and 7-day figures count it (a needs_input answer is judged apart, as the prober's are).
 */
export function liveHistory(obs: LiveObservation | null, now: Date): History {
  const judged = obs !== null && obs.outcome !== "needs_input" && now.getTime() - Date.parse(obs.probedAt) < HOURS_7D * HOUR;
  if (!judged) return historyOf([], now);
  const at = openHour(new Date(obs.probedAt));
  const code = obs.statusCode === null ? "network_error" : String(obs.statusCode);
  const latency: [number, number] = obs.latencyMs === null ? [0, 0] : [1, obs.latencyMs];
  return historyOf([[at, 1, obs.outcome === "healthy" ? 1 : 0, ...latency, { [code]: 1 }]], now);
}

const openHour = (t: Date) => Math.floor(t.getTime() / HOUR) * HOUR;

function historyOf(buckets: readonly Bucket[], now: Date): History {
  const open = openHour(now);
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

export type CatalogTotals = Pick<GroupStats, "raw_catalog_total" | "effective_catalog_total">;

/**
 * The catalog's totals as the last recompute counted them (any active listing's stored context
 * carries them), for a URL in no group: its group is empty, the catalog is not. Zeros before any recompute.
 */
export async function catalogTotals(db: Kysely<Database>): Promise<CatalogTotals> {
  const { rows } = await sql<{ raw: number | null; effective: number | null }>`
    select (s.detail #>> '{context,group,raw_catalog_total}')::int as raw, (s.detail #>> '{context,group,effective_catalog_total}')::int as effective
    from signal_snapshots s join listings l on l.id = s.listing_id
    where l.is_active and s.detail #> '{context,group}' is not null limit 1`.execute(db);
  return { raw_catalog_total: rows[0]?.raw ?? 0, effective_catalog_total: rows[0]?.effective ?? 0 };
}
