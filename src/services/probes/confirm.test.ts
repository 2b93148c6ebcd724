import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ProbeOutcome } from "../../db/schema.js";
import { THRESHOLDS } from "../signals/constants.js";
import { nextProbeAt } from "./confirm.js";
import { CONFIRM_INTERVAL_MS, CONFIRM_PROBES, PROBE_TICK_MS, PROBE_TIMEOUT_MS, WRITE_FLUSH_MS } from "./constants.js";
import { nextSlot } from "./slots.js";

/**
 * Decision 0047 over generated histories: whatever a listing answers, and however late each
 * probe is written (a tick, a whole probe time-out, a write flush), a run of failures reaches
 * `dead` within 3 minutes of its first failed probe, and a listing costs a bounded few probes.
 */
const DEAD = THRESHOLDS.deadMinProbes;
const LATE_MS = PROBE_TICK_MS + PROBE_TIMEOUT_MS + WRITE_FLUSH_MS;
const outcome = fc.constantFrom<ProbeOutcome>("healthy", "error", "error", "blocked", "unchallenged", "needs_input");
const interval = fc.constantFrom(60_000, 300_000, 600_000, 3_600_000);
const run = fc.record({
  id: fc.integer({ min: 1, max: 2 ** 40 }),
  intervalMs: interval,
  plays: fc.array(fc.tuple(outcome, fc.integer({ min: 0, max: LATE_MS })), { minLength: 1, maxLength: 60 }),
});
type Probe = { at: number; outcome: ProbeOutcome; chain: number };

/** Plays a listing through the planner; `chain` numbers the slot probe and the confirmations it led to. */
function play(id: number, intervalMs: number, plays: Array<[ProbeOutcome, number]>): Probe[] {
  const probes: Probe[] = [];
  let due = Date.UTC(2026, 10, 20, 12) + (id % 600) * 1_000;
  let confirming = false;
  for (const [o, late] of plays) {
    const at = due + late;
    probes.push({ at, outcome: o, chain: confirming ? probes.at(-1)!.chain : (probes.at(-1)?.chain ?? -1) + 1 });
    due = nextProbeAt(id, new Date(at), intervalMs, { outcomes: probes.map((p) => p.outcome).reverse() }).getTime();
    confirming = due < nextSlot(id, new Date(at), intervalMs).getTime();
  }
  return probes;
}

describe("confirmation planner (decision 0047)", () => {
  it("a failure run gets its confirmations whatever came before: dead within 3 minutes of its first failed probe", () => {
    fc.assert(
      fc.property(run, ({ id, intervalMs, plays }) => {
        const probes = play(id, intervalMs, plays);
        const answered = probes.filter((p) => p.outcome !== "blocked");
        for (let i = 0; i + DEAD <= answered.length; i++) {
          const starts = answered[i]!.outcome === "error" && answered[i - 1]?.outcome !== "error";
          if (!starts || !answered.slice(i, i + DEAD).every((p) => p.outcome === "error")) continue;
          const span = answered[i + DEAD - 1]!.at - answered[i]!.at;
          // No refused probe in between: each probe came a confirmation interval (plus lateness) after the one before.
          if (answered[i + DEAD - 1] === probes[probes.indexOf(answered[i]!) + DEAD - 1]) {
            expect(span).toBeLessThanOrEqual((DEAD - 1) * (CONFIRM_INTERVAL_MS + LATE_MS));
            expect(span).toBeLessThanOrEqual(3 * 60_000 - 2 * LATE_MS);
          }
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("costs at most deadMinProbes probes per slot, plus two at first sight, and two slots' worth in any interval", () => {
    fc.assert(
      fc.property(run, ({ id, intervalMs, plays }) => {
        const probes = play(id, intervalMs, plays);
        // First sight: probes written while the listing had fewer than CONFIRM_PROBES answers.
        const firstSight = (p: Probe) => probes.slice(0, probes.indexOf(p)).filter((q) => q.outcome !== "blocked").length < CONFIRM_PROBES;
        const extra = CONFIRM_PROBES - 1;
        for (let n = 0; n <= probes.at(-1)!.chain; n++) {
          const chain = probes.filter((p) => p.chain === n);
          expect(chain.length).toBeLessThanOrEqual(DEAD + (firstSight(chain[0]!) ? extra : 0));
        }
        for (const p of probes) {
          const window = probes.filter((q) => q.at > p.at - intervalMs && q.at <= p.at);
          expect(window.length).toBeLessThanOrEqual(2 * DEAD + (window.some(firstSight) ? extra : 0));
        }
        expect(probes.length).toBeLessThanOrEqual(DEAD * (probes.at(-1)!.chain + 1) + extra);
      }),
      { numRuns: 3000 },
    );
  });

  it("a refused probe waits for its slot, and a settled listing goes back to its slot", () => {
    const now = new Date("2026-11-20T12:00:00Z");
    const slot = nextSlot(7, now, 600_000);
    expect(nextProbeAt(7, now, 600_000, { outcomes: ["blocked", "error", "healthy", "healthy"] })).toEqual(slot);
    expect(nextProbeAt(7, now, 600_000, { outcomes: ["healthy", "error", "error"] })).toEqual(slot);
    expect(nextProbeAt(7, now, 600_000, { outcomes: ["error", "error", "error"] })).toEqual(slot);
    expect(nextProbeAt(7, now, 600_000, { outcomes: ["error", "blocked", "error", "healthy"] }).getTime()).toBe(now.getTime() + CONFIRM_INTERVAL_MS);
  });
});
