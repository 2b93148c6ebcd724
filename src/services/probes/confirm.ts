import type { ProbeOutcome } from "../../db/schema.js";
import { CONFIRM_INTERVAL_MS, CONFIRM_PROBES } from "./constants.js";
import { nextSlot } from "./slots.js";

/** What the planner knows of a listing when its newest probe is written. */
export interface ProbeHistory {
  /** Outcomes newest first, the probe being written included. */
  outcomes: readonly ProbeOutcome[];
  /** Probes of the last probe interval, the one being written included. */
  inInterval: number;
}

/**
 * When a listing is probed next (decision 0014). Until its newest CONFIRM_PROBES outcomes agree
 * (a new listing, or a change of state) it is probed again after CONFIRM_INTERVAL_MS, so a change
 * is confirmed in minutes, not cycles. Once more than CONFIRM_PROBES probes fell in the last
 * interval it waits for its slot, so a flapping endpoint costs a bounded few extra probes.
 */
export function nextProbeAt(listingId: number, now: Date, intervalMs: number, h: ProbeHistory): Date {
  // A refused probe says nothing about the endpoint and the next would be refused too: no confirmation.
  const seen = h.outcomes.filter((o) => o !== "blocked");
  const settled = h.outcomes[0] === "blocked" || (seen.length >= CONFIRM_PROBES && seen.slice(0, CONFIRM_PROBES).every((o) => o === seen[0]));
  const slot = nextSlot(listingId, now, intervalMs);
  if (settled || h.inInterval > CONFIRM_PROBES) return slot;
  const confirm = new Date(now.getTime() + CONFIRM_INTERVAL_MS);
  return confirm < slot ? confirm : slot;
}
