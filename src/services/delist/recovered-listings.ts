import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { DAY } from "../signals/constants.js";
import { DELIST, utcDay } from "./constants.js";
import { FLAGGED, orderReasons } from "./flag-reasons.js";

export interface RecoveredListing {
  url: string;
  method: string;
  wasReasons: string[];
  /** The end of the last flagged UTC day, or now when that day is today. */
  flaggedUntil: Date;
  uptime48hPct: number;
}

interface Row {
  url: string;
  method: string;
  day: string;
  reasons: string[];
  uptime_48h_pct: number;
}

/**
 * Active listings flagged on some day from `fromDay` to today that no reason holds for now and
 * whose 48 h uptime reached the recovery bar. was_reasons are those of the last flagged day.
 */
export async function recoveredListings(db: Kysely<Database>, fromDay: string, now: Date): Promise<RecoveredListing[]> {
  const { rows } = await sql<Row>`
    with last_flag as (
      select distinct on (listing_id) listing_id, day, reasons
      from flag_history
      where day >= ${fromDay}::date and day <= ${utcDay(now)}::date
      order by listing_id, day desc
    )
    select l.url, l.method, to_char(lf.day, 'YYYY-MM-DD') as day, lf.reasons, s.uptime_48h_pct
    from last_flag as lf
    join listings as l on l.id = lf.listing_id
    join signal_snapshots as s on s.listing_id = l.id
    where l.is_active and not ${FLAGGED} and s.uptime_48h_pct >= ${DELIST.recoveredUptime48hPct}
    order by l.url_normalized, l.method`.execute(db);
  return rows.map((r) => ({
    url: r.url,
    method: r.method,
    wasReasons: orderReasons(r.reasons),
    flaggedUntil: new Date(Math.min(Date.parse(`${r.day}T00:00:00.000Z`) + DAY, now.getTime())),
    uptime48hPct: r.uptime_48h_pct,
  }));
}
