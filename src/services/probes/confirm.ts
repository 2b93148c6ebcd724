import type { ProbeOutcome } from "../../db/schema.js";
import { THRESHOLDS } from "../signals/constants.js";
import { CONFIRM_INTERVAL_MS, CONFIRM_PROBES } from "./constants.js";
import { nextSlot } from "./slots.js";

/** What the planner knows of a listing when its newest probe is written. */
export interface ProbeHistory {
  /**
   * Outcomes newest first, the probe being written first. The planner reads the newest
   * HISTORY_DEPTH answered (not `blocked`) ones, so the stored ones may be cut to those.
   */
  outcomes: readonly ProbeOutcome[];
}

/** Answered outcomes the planner reads: enough to tell first sight and a run shorter than dead. */
export const HISTORY_DEPTH = Math.max(CONFIRM_PROBES, THRESHOLDS.deadMinProbes);

/**
 * Whether the probe being written calls for a confirmation probe (decisions 0014, 0047): at first
 * sight (fewer than CONFIRM_PROBES answered probes), and while the newest answers are a run of
 * failures shorter than `dead` needs. Nothing else: a recovery clears `dead` and `failing` at its
 * first healthy probe, so every confirmation a listing gets after first sight serves a failure run.
 */
export function needsConfirmation(outcomes: readonly ProbeOutcome[]): boolean {
  // A refused probe says nothing about the endpoint and the next would be refused too.
  if (outcomes.length === 0 || outcomes[0] === "blocked") return false;
  const answered = outcomes.filter((o) => o !== "blocked").slice(0, HISTORY_DEPTH);
  if (answered.length < CONFIRM_PROBES) return true;
  const run = answered.findIndex((o) => o !== "error");
  const streak = run === -1 ? answered.length : run;
  return streak > 0 && streak < THRESHOLDS.deadMinProbes;
}

/**
 * When a listing is probed next: CONFIRM_INTERVAL_MS after this write when a confirmation is
 * due (or its slot, if sooner), else its next slot. A run of failures therefore gets its
 * deadMinProbes − 1 confirmations whatever came before it, and a slot starts at most one run:
 * at most deadMinProbes probes per slot after first sight (docs/probing.md states the bound).
 */
export function nextProbeAt(listingId: number, now: Date, intervalMs: number, h: ProbeHistory): Date {
  const slot = nextSlot(listingId, now, intervalMs);
  if (!needsConfirmation(h.outcomes)) return slot;
  const confirm = new Date(now.getTime() + CONFIRM_INTERVAL_MS);
  return confirm < slot ? confirm : slot;
}
