import type { BenchEndpoint, BenchFleet } from "./fleet.js";
import { isDown, type EndpointState } from "./hosts.js";
import { slotAtOrBefore } from "./settle.js";

/** A change of state, made FLIP_LEAD_MS before the endpoint's slot so its slot probe is the first to see it. */
export interface Change {
  e: BenchEndpoint;
  to: EndpointState;
  slot: number;
  flipAt: number;
}

export const CHANGES_PER_CYCLE = 0.01;
const FLIP_LEAD_MS = 8_000;
/** Changes fall on slots in [start + FIRST_MS, end - LAST_MS], so each one's 3-minute target ends within the run. */
const FIRST_MS = 40_000;
const LAST_MS = 190_000;

/**
 * CHANGES_PER_CYCLE of the settled endpoints change state per probe interval, spread evenly over
 * the run: a fifth of them healthy to refused, a third 500 to healthy (recovery), the rest
 * healthy to 500. Each picks an endpoint whose slot is near its turn.
 */
export function planChanges(fleet: BenchFleet, ids: Map<string, number>, start: number, seconds: number, intervalMs: number): Change[] {
  const settled = fleet.endpoints.filter((e) => e.group !== "new");
  const total = Math.round((CHANGES_PER_CYCLE * settled.length * seconds * 1000) / intervalMs);
  const [from, to] = [start + FIRST_MS, start + seconds * 1000 - LAST_MS];
  if (to <= from) return [];
  const slotOf = (e: BenchEndpoint) => {
    const s = slotAtOrBefore(ids.get(e.url)!, from, intervalMs);
    return s >= from ? s : s + intervalMs;
  };
  const pick = (pool: BenchEndpoint[], count: number, state: EndpointState): Change[] => {
    const inWindow = pool.map((e) => ({ e, slot: slotOf(e) })).filter((c) => c.slot <= to);
    inWindow.sort((a, b) => a.slot - b.slot);
    const n = Math.min(count, inWindow.length);
    return Array.from({ length: n }, (_, k) => inWindow[Math.floor(((k + 0.5) * inWindow.length) / n)]!).map((c) => ({
      ...c,
      to: state,
      flipAt: c.slot - FLIP_LEAD_MS,
    }));
  };
  const state0 = (e: BenchEndpoint) => e.timeline[0]!.state;
  const refused = pick(
    settled.filter((e) => e.group === "refusable"),
    Math.round(total / 5),
    "refused",
  );
  const recovered = pick(
    settled.filter((e) => e.group === "settled" && isDown(state0(e))),
    Math.round(total / 3),
    "v2",
  );
  const failed = pick(
    settled.filter((e) => e.group === "settled" && !isDown(state0(e))),
    total - refused.length - recovered.length,
    "500",
  );
  return [...refused, ...recovered, ...failed].sort((a, b) => a.flipAt - b.flipAt);
}

/** Makes each change at its time; returns a stop that cancels the ones not made yet. */
export function scheduleChanges(fleet: BenchFleet, changes: readonly Change[], onFlip: (c: Change) => void): () => void {
  const timers = changes.map((c) =>
    setTimeout(
      () => {
        fleet.setState(c.e, c.to, Date.now());
        onFlip(c);
      },
      Math.max(0, c.flipAt - Date.now()),
    ),
  );
  return () => timers.forEach(clearTimeout);
}
