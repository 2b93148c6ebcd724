import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { percentile } from "../evidence/latency-histogram.js";
import { history } from "../reports/forensics-history.js";
import { HOUR } from "../signals/constants.js";
import type { HourBucket } from "./types.js";

type Latency = [at: number, count: number, sumMs: number, hist: number[]];

/**
 * The forensics report's 168 hourly buckets and status codes (forensics-history.ts), oldest
 * first, each with its p50 and p90 from the hour's latency histogram, and the 7-day mean
 * latency. The same hourly rollups the paid report reads; no probe row is read.
 */
export async function hourlyOf(db: Kysely<Database>, listingId: number, now: Date) {
  const h = await history(db, listingId, now);
  const since = new Date(Math.floor(now.getTime() / HOUR) * HOUR - (h.hourly.length - 1) * HOUR);
  const { rows } = await sql<{ latency: string | null }>`
    select json_agg(json_build_array(extract(epoch from bucket) * 1000, latency_count, latency_sum_ms, latency_hist))::text as latency
    from probe_hourly where listing_id = ${listingId} and bucket >= ${since}`.execute(db);
  const latency = JSON.parse(rows[0]?.latency ?? "[]") as Latency[];
  const byHour = new Map(latency.map((l) => [l[0], l]));
  const hourly: HourBucket[] = h.hourly
    .map((b) => {
      const hist = byHour.get(Date.parse(b.bucket))?.[3] ?? [];
      return { hour: b.bucket, probes: b.probes, healthy: b.healthy, p50Ms: percentile(hist, 0.5), p90Ms: percentile(hist, 0.9) };
    })
    .reverse();
  const count = latency.reduce((n, l) => n + Number(l[1]), 0);
  const sum = latency.reduce((n, l) => n + Number(l[2]), 0);
  return { hourly, statusCodes: h.statusCodes, avgLatency7dMs: count > 0 ? Math.round(sum / count) : null };
}
