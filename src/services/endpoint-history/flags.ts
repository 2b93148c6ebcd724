import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { addDays, utcDay } from "../delist/constants.js";
import type { FlagSpan } from "./types.js";

/** flag_history keeps a year (src/db/retention.ts): the page shows all of it. */
const LOOKBACK_DAYS = 366;

/**
 * The delist records of one listing as spans of consecutive flagged UTC days, newest first. A
 * span that ended before today is recovered: the recorder writes a row every day a flag holds.
 */
export async function flagsOf(db: Kysely<Database>, listingId: number, now: Date): Promise<FlagSpan[]> {
  const today = utcDay(now);
  const rows = await db
    .selectFrom("flag_history")
    .select(["day", "reasons"])
    .where("listing_id", "=", listingId)
    .where("day", ">=", addDays(today, -LOOKBACK_DAYS))
    .orderBy("day")
    .execute();
  const spans: FlagSpan[] = [];
  for (const r of rows) {
    const day = r.day;
    const last = spans[spans.length - 1];
    if (last && addDays(last.to, 1) === day) {
      last.to = day;
      last.reasons = [...new Set([...last.reasons, ...r.reasons])].sort();
    } else spans.push({ from: day, to: day, reasons: [...r.reasons].sort(), recovered: false });
  }
  for (const s of spans) s.recovered = s.to < today;
  return spans.reverse();
}
