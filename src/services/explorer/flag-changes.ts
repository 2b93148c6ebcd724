import { addDays } from "../delist/constants.js";

/** The days a provider's incident timeline covers: today and the six UTC days before it. */
export const TIMELINE_DAYS = 7;

/** One flag_history row: a listing flagged on a UTC day, with the reasons seen that day. */
export interface FlagDay {
  listingId: number;
  day: string;
  reasons: readonly string[];
  /** When the recorder first saw the listing flagged that day. */
  recordedAt: Date;
}

/**
 * A change of a listing's delist flag: it became flagged (the moment the recorder first saw it),
 * its reasons changed, or it was no longer flagged (known to the day only: the recorder writes
 * one row per flagged day, so a day without one is a day the flag did not hold).
 */
export interface FlagChange {
  listingId: number;
  kind: "flagged" | "changed" | "cleared";
  day: string;
  at: Date | null;
  /** The reasons after the change; for `cleared`, the ones that held until then. */
  reasons: string[];
  added: string[];
  removed: string[];
}

/**
 * The flag changes of the last TIMELINE_DAYS days up to `today`, newest first. Rows from the
 * day before the window say what each listing started from; rows outside it are ignored.
 */
export function flagChanges(rows: readonly FlagDay[], today: string): FlagChange[] {
  const first = addDays(today, 1 - TIMELINE_DAYS);
  const byListing = new Map<number, Map<string, FlagDay>>();
  for (const r of rows) {
    if (!byListing.has(r.listingId)) byListing.set(r.listingId, new Map());
    byListing.get(r.listingId)!.set(r.day, r);
  }
  const changes: FlagChange[] = [];
  for (const [listingId, days] of byListing) {
    for (let day = first; day <= today; day = addDays(day, 1)) {
      const before = days.get(addDays(day, -1));
      const now = days.get(day);
      if (!before && now)
        changes.push({ listingId, kind: "flagged", day, at: now.recordedAt, reasons: [...now.reasons], added: [...now.reasons], removed: [] });
      else if (before && !now)
        changes.push({ listingId, kind: "cleared", day, at: null, reasons: [...before.reasons], added: [], removed: [...before.reasons] });
      else if (before && now) {
        const added = now.reasons.filter((r) => !before.reasons.includes(r));
        const removed = before.reasons.filter((r) => !now.reasons.includes(r));
        if (added.length || removed.length) changes.push({ listingId, kind: "changed", day, at: null, reasons: [...now.reasons], added, removed });
      }
    }
  }
  const order = (c: FlagChange) => `${c.day}${c.at?.toISOString() ?? "~"}`;
  return changes.sort((a, b) => (order(a) === order(b) ? a.listingId - b.listingId : order(a) < order(b) ? 1 : -1));
}
