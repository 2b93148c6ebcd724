import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { DAY, HOUR } from "../signals/constants.js";
import { EXPLORER, type Sparkline } from "./types.js";

/**
 * Daily uptime (healthy / probes, percent, one decimal) of each listing over the same 168 hours
 * as the forensics history (src/services/reports/forensics-history.ts): 7 windows of 24 hours
 * ending with the current hour, oldest first; null for a window without probes. One statement
 * for a page's listings, read through the hourly rollup's primary key.
 */
export async function sparklines(db: Kysely<Database>, ids: readonly number[], now: Date): Promise<Map<number, Sparkline>> {
  const days = EXPLORER.sparkDays;
  const out = new Map(ids.map((id) => [id, Array<number | null>(days).fill(null)]));
  if (ids.length === 0) return out;
  const open = Math.floor(now.getTime() / HOUR) * HOUR;
  const since = new Date(open - (days * 24 - 1) * HOUR);
  const { rows } = await sql<{ listing_id: number; ago: number; probes: number; healthy: number }>`
    select listing_id, floor(extract(epoch from (${new Date(open)}::timestamptz - bucket)) * 1000 / ${DAY})::int as ago,
           sum(probes)::int as probes, sum(healthy)::int as healthy
    from probe_hourly
    where listing_id in (${sql.join(ids)}) and bucket >= ${since} and bucket <= ${new Date(open)}
    group by 1, 2`.execute(db);
  for (const r of rows) {
    const line = out.get(Number(r.listing_id));
    const ago = Number(r.ago);
    if (!line || ago < 0 || ago >= days || r.probes <= 0) continue;
    line[days - 1 - ago] = Math.round((r.healthy / r.probes) * 1000) / 10;
  }
  return out;
}
