import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { DAY, HOUR } from "../signals/constants.js";
import { EXPLORER, type Sparkline } from "./types.js";

/** Sparklines kept per verdict generation: a popular page's rows are read once, not per view. */
const MAX_CACHED = 20_000;

/**
 * Daily uptime (healthy / probes, percent, one decimal) of each listing over the same 168 hours
 * as the forensics history (src/services/reports/forensics-history.ts): 7 windows of 24 hours
 * ending with the current hour, oldest first; null for a window without probes. One statement
 * for a page's listings: an index-only scan of the hourly rollup's covering key (0011), grouped
 * by date_bin (cheaper than arithmetic on extract(epoch)).
 */
export async function sparklines(db: Kysely<Database>, ids: readonly number[], now: Date): Promise<Map<number, Sparkline>> {
  const days = EXPLORER.sparkDays;
  const out = new Map(ids.map((id) => [id, Array<number | null>(days).fill(null)]));
  if (ids.length === 0) return out;
  const open = new Date(Math.floor(now.getTime() / HOUR) * HOUR);
  const since = new Date(open.getTime() - (days * 24 - 1) * HOUR);
  const { rows } = await sql<{ listing_id: number; day: Date; probes: number; healthy: number }>`
    select listing_id, date_bin('24 hours', bucket, ${since}::timestamptz) as day, sum(probes)::int as probes, sum(healthy)::int as healthy
    from probe_hourly
    where listing_id in (${sql.join(ids)}) and bucket >= ${since} and bucket <= ${open}
    group by 1, 2`.execute(db);
  for (const r of rows) {
    const line = out.get(Number(r.listing_id));
    const k = Math.round((new Date(r.day).getTime() - since.getTime()) / DAY);
    if (!line || k < 0 || k >= days || r.probes <= 0) continue;
    line[k] = Math.round((r.healthy / r.probes) * 1000) / 10;
  }
  return out;
}

/**
 * The sparklines of one verdict generation (the rollup runs before each recompute, so a new
 * generation brings new days), also renewed when the hour turns; the oldest entries go first.
 */
export function sparklineCache(db: Kysely<Database>) {
  let hour = -1;
  const kept = new Map<number, Sparkline>();
  return async (ids: readonly number[], now: Date): Promise<Map<number, Sparkline>> => {
    const h = Math.floor(now.getTime() / HOUR);
    if (h !== hour) {
      kept.clear();
      hour = h;
    }
    const missing = ids.filter((id) => !kept.has(id));
    for (const [id, line] of await sparklines(db, missing, now)) kept.set(id, line);
    while (kept.size > MAX_CACHED) kept.delete(kept.keys().next().value!);
    return new Map(ids.map((id) => [id, kept.get(id) ?? Array<number | null>(EXPLORER.sparkDays).fill(null)]));
  };
}
