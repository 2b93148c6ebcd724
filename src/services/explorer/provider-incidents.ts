import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { addDays, utcDay } from "../delist/constants.js";
import { orderReasons } from "../delist/flag-reasons.js";
import { flagChanges, TIMELINE_DAYS, type FlagChange } from "./flag-changes.js";

/** A provider page shows this many changes, newest first; `total` says how many there were. */
export const TIMELINE_LIMIT = 100;

export interface ProviderIncident extends FlagChange {
  method: string;
  url: string;
}

export interface ProviderTimeline {
  /** The first UTC day covered; the last is today. */
  from: string;
  incidents: ProviderIncident[];
  total: number;
}

/**
 * A provider's incident timeline: the delist flag changes of its endpoints (listed now or not)
 * over the last TIMELINE_DAYS UTC days, from the daily flag records (flag_history, written by
 * the delist recorder), read the way each endpoint page's flag history reads them.
 */
export async function providerTimeline(db: Kysely<Database>, providerId: string, now: Date): Promise<ProviderTimeline> {
  const today = utcDay(now);
  const rows = await db
    .selectFrom("flag_history as f")
    .innerJoin("listings as l", "l.id", "f.listing_id")
    .select(["f.listing_id", "f.day", "f.reasons", "f.recorded_at", "l.method", "l.url"])
    .where("l.provider_id", "=", providerId)
    .where("f.day", ">=", addDays(today, -TIMELINE_DAYS))
    .where("f.day", "<=", today)
    .execute();
  const where = new Map(rows.map((r) => [Number(r.listing_id), { method: r.method, url: r.url }]));
  const changes = flagChanges(
    rows.map((r) => ({ listingId: Number(r.listing_id), day: r.day, reasons: orderReasons(r.reasons), recordedAt: new Date(r.recorded_at) })),
    today,
  );
  return {
    from: addDays(today, 1 - TIMELINE_DAYS),
    incidents: changes.slice(0, TIMELINE_LIMIT).map((c) => ({ ...c, ...where.get(c.listingId)! })),
    total: changes.length,
  };
}
