import { randomUUID } from "node:crypto";
import type { DeliveryStatus, JsonObject, SignalState, WatchSignalState } from "../../db/schema.js";
import { LEFT_CATALOG } from "./constants.js";
import { UNLISTED_EVIDENCE } from "./evidence.js";
import type { UrlVerdict, WatchSignal } from "./watched-verdicts.js";

export interface LiveWatch {
  id: string;
  url: string;
  url_normalized: string;
  signals: string[];
  alerts_remaining: number;
  listing_id: number | null;
}

/** The stored state of a (watch, signal): the current one and the last fired/cleared one. */
export interface KnownState {
  state: WatchSignalState;
  decided: SignalState | null;
}

export interface StateChange extends KnownState {
  watch_id: string;
  signal: string;
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

/** The subscribed signals, then left_catalog, which every watch hears (decision 0039). */
const heard = (w: LiveWatch) => [...(w.signals as WatchSignal[]), LEFT_CATALOG] as const;

/**
 * Compares the state of each (watch, signal) now with its stored one. Every change of state is
 * recorded; alerts follow the last decided (fired or cleared) state only: one per change, never
 * per probe. `unknown` (too little evidence) raises nothing and keeps the decided state, so
 * cleared -> unknown -> cleared is silent and fired -> unknown -> cleared alerts once. A first
 * decision is silent when cleared and alerted once when it already fires. Each alert is charged
 * once, here, whatever its later attempts; with no alert left it is recorded as
 * skipped_quota_exceeded and never sent. Besides its subscribed signals every watch hears
 * left_catalog, by the same rules: one alert when its listing leaves the catalog, one if it returns.
 */
export function planTransitions(
  watches: readonly LiveWatch[],
  verdicts: ReadonlyMap<string, UrlVerdict>,
  known: ReadonlyMap<string, KnownState>,
  now: Date,
): TransitionPlan {
  const plan: TransitionPlan = { states: [], deliveries: [], spent: [], listings: [] };
  for (const w of watches) {
    const verdict = verdicts.get(w.url_normalized);
    const listingId = verdict?.listingId ?? null;
    if (listingId !== (w.listing_id === null ? null : Number(w.listing_id))) plan.listings.push({ id: w.id, listing_id: listingId });
    let remaining = w.alerts_remaining;
    for (const signal of heard(w)) {
      const state = verdict ? verdict.state(signal) : "unknown";
      const previous = known.get(stateKey(w.id, signal));
      if (previous?.state === state) continue;
      const evidence = verdict ? verdict.evidence(signal) : UNLISTED_EVIDENCE;
      const decided = state === "unknown" ? (previous?.decided ?? null) : state;
      plan.states.push({ watch_id: w.id, signal, state, decided, evidence });
      if (state === "unknown" || state === (previous?.decided ?? "cleared")) continue;
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

export const knownStates = (rows: ReadonlyArray<{ watch_id: string; signal: string } & KnownState>) =>
  new Map(rows.map((r) => [stateKey(r.watch_id, r.signal), { state: r.state, decided: r.decided }]));
