import type { Kysely } from "kysely";
import type { Database, JsonObject, WatchSignalState } from "../../db/schema.js";
import type { WarningCode } from "../signals/constants.js";
import { firedOf } from "../evidence/index.js";
import { selectReportRows } from "../signals/listing-row.js";
import { signalInput, storedContext } from "../signals/signal-input.js";
import { LEFT_CATALOG } from "./constants.js";
import { evidenceFor } from "./evidence.js";
import { signalState } from "./signal-states.js";
import { isLive } from "./watch-activity.js";

/** What a watch hears: its subscribed warning codes, and whether its listing left the catalog. */
export type WatchSignal = WarningCode | typeof LEFT_CATALOG;

/** The verdict of one watched URL: the state of each signal now (fired, cleared, unknown) and the numbers behind it. */
export interface UrlVerdict {
  listingId: number;
  state(signal: WatchSignal): WatchSignalState;
  evidence(signal: WatchSignal): JsonObject;
}

/**
 * The current verdict of every URL a live watch names, from one query over the catalog: the
 * stored verdict the reports read (signals/verdict.ts). URLs that were never
 * listed are absent: their signals are unknown until the catalog lists them and evidence exists.
 */
export async function watchedVerdicts(db: Kysely<Database>, now: Date): Promise<Map<string, UrlVerdict>> {
  const watched = db.selectFrom("watches as w").select("w.url_normalized").where(isLive("w", now));
  const rows = await selectReportRows(db)
    .where("l.url_normalized", "in", watched)
    .select(["l.last_seen_at", "l.deactivated_at"])
    .orderBy("l.is_active", "asc")
    .orderBy("l.last_seen_at", "asc")
    .orderBy("l.id", "asc")
    .execute();
  const out = new Map<string, UrlVerdict>();
  // Later rows win, as in the reports: an active listing over an inactive one, then the newest.
  for (const row of rows) {
    const input = signalInput(row, storedContext(row));
    const fired = new Set(firedOf(input, row, now));
    // A listing that left the catalog is still found (inactive): left_catalog fires, and clears if it returns.
    const listing = { listed: row.is_active, last_seen_at: row.last_seen_at.toISOString(), left_at: row.deactivated_at?.toISOString() ?? null };
    out.set(row.url_normalized, {
      listingId: Number(row.id),
      state: (code) => (code === LEFT_CATALOG ? (row.is_active ? "cleared" : "fired") : signalState(code, fired.has(code), input, row, now)),
      evidence: (code) => (code === LEFT_CATALOG ? listing : evidenceFor(code, input, now, row.last_probe_at)),
    });
  }
  return out;
}
