import { randomUUID } from "node:crypto";
import type { DeliveryStatus, JsonObject, SignalState } from "../../db/schema.js";
import type { WarningCode } from "../signals/constants.js";
import { UNLISTED_EVIDENCE } from "./evidence.js";
import type { UrlVerdict } from "./watched-verdicts.js";

export interface LiveWatch {
  id: string;
  url: string;
  url_normalized: string;
  signals: string[];
  alerts_remaining: number;
  listing_id: number | null;
}

export interface StateChange {
  watch_id: string;
  signal: string;
  state: SignalState;
  evidence: JsonObject;
}

export interface PlannedDelivery {
  /** The Standard Webhooks webhook-id, fixed for every attempt. */
  id: string;
  watch_id: string;
  signal: string;
  state: SignalState;
  status: Extract<DeliveryStatus, "pending" | "skipped_quota_exceeded">;
  payload: JsonObject;
}

export interface TransitionPlan {
  states: StateChange[];
  deliveries: PlannedDelivery[];
  /** Alerts charged per watch. */
  spent: Array<{ id: string; n: number }>;
  listings: Array<{ id: string; listing_id: number | null }>;
}

const stateKey = (watchId: string, signal: string) => `${watchId}\u0000${signal}`;

/**
 * Compares what fires now with the last known state of each (watch, signal). One alert per
 * change, never per probe. A signal seen for the first time is recorded silently when cleared
 * and alerted once when it already fires. Each alert is charged once, here, whatever its later
 * attempts; with no alert left it is recorded as skipped_quota_exceeded and never sent.
 */
export function planTransitions(
  watches: readonly LiveWatch[],
  verdicts: ReadonlyMap<string, UrlVerdict>,
  known: ReadonlyMap<string, SignalState>,
  now: Date,
): TransitionPlan {
  const plan: TransitionPlan = { states: [], deliveries: [], spent: [], listings: [] };
  for (const w of watches) {
    const verdict = verdicts.get(w.url_normalized);
    const listingId = verdict?.listingId ?? null;
    if (listingId !== (w.listing_id === null ? null : Number(w.listing_id))) plan.listings.push({ id: w.id, listing_id: listingId });
    let remaining = w.alerts_remaining;
    for (const signal of w.signals) {
      const state: SignalState = verdict?.fired.has(signal as WarningCode) ? "fired" : "cleared";
      const previous = known.get(stateKey(w.id, signal));
      if (previous === state) continue;
      const evidence = verdict ? verdict.evidence(signal as WarningCode) : UNLISTED_EVIDENCE;
      plan.states.push({ watch_id: w.id, signal, state, evidence });
      if (previous === undefined && state === "cleared") continue;
      const status = remaining > 0 ? "pending" : "skipped_quota_exceeded";
      if (status === "pending") remaining--;
      const id = randomUUID();
      plan.deliveries.push({
        id,
        watch_id: w.id,
        signal,
        state,
        status,
        payload: { type: `watch.signal.${state}`, watchId: w.id, url: w.url, signal, state, evidence, firedAt: now.toISOString(), alertsRemaining: remaining },
      });
    }
    if (remaining !== w.alerts_remaining) plan.spent.push({ id: w.id, n: w.alerts_remaining - remaining });
  }
  return plan;
}

export const knownStates = (rows: ReadonlyArray<{ watch_id: string; signal: string; state: SignalState }>) =>
  new Map(rows.map((r) => [stateKey(r.watch_id, r.signal), r.state]));
