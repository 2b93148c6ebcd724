import { describe, expect, it } from "vitest";
import type { JsonObject, WatchSignalState } from "../../db/schema.js";
import { knownStates, planTransitions, type LiveWatch, type StateChange } from "./plan-transitions.js";
import { LEFT_CATALOG } from "./constants.js";
import type { UrlVerdict } from "./watched-verdicts.js";

const now = new Date("2026-11-20T12:00:00Z");
const watch: LiveWatch = {
  id: "w1",
  url: "https://a.example/x",
  url_normalized: "https://a.example/x",
  signals: ["dead"],
  alerts_remaining: 100,
  listing_id: 7,
};
/** `dead` in `state`; the listing in the catalog unless `listed` is false (then left_catalog fires). */
const verdict = (state: WatchSignalState, listed = true): UrlVerdict => ({
  listingId: 7,
  state: (signal) => (signal === LEFT_CATALOG ? (listed ? "cleared" : "fired") : state),
  evidence: (signal): JsonObject => (signal === LEFT_CATALOG ? { listed } : { probes_1h: 0 }),
});

type Step = WatchSignalState | "unlisted" | "left";

/** Runs the planner over a sequence of steps, carrying the stored state between them; returns the alerts as signal:state. */
function alertsOf(steps: readonly Step[], w: LiveWatch = watch): string[] {
  let stored: StateChange[] = [];
  const alerts: string[] = [];
  for (const s of steps) {
    const verdicts = new Map(s === "unlisted" ? [] : [[w.url_normalized, s === "left" ? verdict("unknown", false) : verdict(s)]]);
    const plan = planTransitions([w], verdicts, knownStates(stored), now);
    stored = [...stored.filter((x) => !plan.states.some((p) => p.signal === x.signal)), ...plan.states];
    alerts.push(...plan.deliveries.map((d) => `${d.signal}:${d.state}`));
  }
  return alerts;
}
/** The alerts of `dead` alone. */
const alertsFor = (steps: readonly Step[]) =>
  alertsOf(steps)
    .filter((a) => a.startsWith("dead:"))
    .map((a) => a.slice("dead:".length));

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

describe("planTransitions when the listing leaves the catalog", () => {
  it.each<[string, Step[], string[]]>([
    ["a listing that stays listed: left_catalog is recorded cleared, silently", ["cleared", "cleared"], []],
    ["it leaves: one alert, however many evaluations follow", ["cleared", "left", "left", "left"], ["left_catalog:fired"]],
    ["it returns: one more", ["cleared", "left", "left", "cleared", "cleared"], ["left_catalog:fired", "left_catalog:cleared"]],
    ["a URL never listed is not 'left': silent", ["unlisted", "unlisted"], []],
    ["a listing found gone at the watch's first look alerts once", ["left", "left"], ["left_catalog:fired"]],
    ["a fired signal goes unknown with it, silently", ["fired", "left"], ["dead:fired", "left_catalog:fired"]],
  ])("%s", (_name, steps, alerts) => {
    expect(alertsOf(steps)).toEqual(alerts);
  });

  it("charges its alert like any other, delivers it as watch.signal.fired, and records it skipped without alerts left", () => {
    const listed = planTransitions([watch], new Map([[watch.url_normalized, verdict("cleared")]]), new Map(), now);
    const left = planTransitions([watch], new Map([[watch.url_normalized, verdict("cleared", false)]]), knownStates(listed.states), now);
    expect(left.deliveries).toEqual([
      {
        id: expect.any(String),
        watch_id: "w1",
        signal: LEFT_CATALOG,
        state: "fired",
        status: "pending",
        payload: expect.objectContaining({ type: "watch.signal.fired", signal: LEFT_CATALOG, evidence: { listed: false }, alertsRemaining: 99 }),
      },
    ]);
    expect(left.spent).toEqual([{ id: "w1", n: 1 }]);
    const broke = planTransitions(
      [{ ...watch, alerts_remaining: 0 }],
      new Map([[watch.url_normalized, verdict("cleared", false)]]),
      knownStates(listed.states),
      now,
    );
    expect(broke.deliveries.map((d) => d.status)).toEqual(["skipped_quota_exceeded"]);
    expect(broke.spent).toEqual([]);
  });
});
