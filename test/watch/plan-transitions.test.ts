import { describe, expect, it } from "vitest";
import type { WatchSignalState } from "../../src/db/schema.js";
import { knownStates, planTransitions, type LiveWatch, type StateChange } from "../../src/services/watch/plan-transitions.js";
import type { UrlVerdict } from "../../src/services/watch/watched-verdicts.js";

const now = new Date("2026-11-20T12:00:00Z");
const watch: LiveWatch = {
  id: "w1",
  url: "https://a.example/x",
  url_normalized: "https://a.example/x",
  signals: ["dead"],
  alerts_remaining: 100,
  listing_id: 7,
};
const verdict = (state: WatchSignalState): UrlVerdict => ({ listingId: 7, state: () => state, evidence: () => ({ probes_1h: 0 }) });

/** Runs the planner over a sequence of states of `dead`, carrying the stored state between steps; returns the alerts. */
function alertsFor(states: ReadonlyArray<WatchSignalState | "unlisted">): string[] {
  let stored: StateChange[] = [];
  const alerts: string[] = [];
  for (const s of states) {
    const verdicts = new Map(s === "unlisted" ? [] : [[watch.url_normalized, verdict(s)]]);
    const plan = planTransitions([watch], verdicts, knownStates(stored), now);
    stored = [...stored.filter((x) => !plan.states.some((p) => p.signal === x.signal)), ...plan.states];
    alerts.push(...plan.deliveries.map((d) => `${d.state}`));
  }
  return alerts;
}

describe("planTransitions with unknown states", () => {
  it.each<[string, Array<WatchSignalState | "unlisted">, string[]]>([
    ["a listing with no evidence yet, then healthy: silent", ["unknown", "cleared"], []],
    ["an unlisted URL is unknown, then listed and healthy: silent", ["unlisted", "cleared"], []],
    ["cleared -> unknown -> cleared: silent", ["cleared", "unknown", "cleared"], []],
    ["unknown -> fired alerts", ["unknown", "fired"], ["fired"]],
    ["fired -> unknown is silent, and back to fired too", ["cleared", "fired", "unknown", "fired"], ["fired"]],
    ["fired -> unknown -> cleared alerts the clear once", ["cleared", "fired", "unknown", "unknown", "cleared", "cleared"], ["fired", "cleared"]],
    ["a signal that already fires at the first look alerts once", ["fired", "fired"], ["fired"]],
  ])("%s", (_name, states, alerts) => {
    expect(alertsFor(states)).toEqual(alerts);
  });

  it("records unknown with the decided state it keeps, and charges nothing for it", () => {
    const fired = planTransitions([watch], new Map([[watch.url_normalized, verdict("fired")]]), new Map(), now);
    const plan = planTransitions([watch], new Map([[watch.url_normalized, verdict("unknown")]]), knownStates(fired.states), now);
    expect(plan.states).toEqual([{ watch_id: "w1", signal: "dead", state: "unknown", decided: "fired", evidence: { probes_1h: 0 } }]);
    expect(plan.deliveries).toEqual([]);
    expect(plan.spent).toEqual([]);
  });
});
