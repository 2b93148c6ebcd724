import { describe, expect, it } from "vitest";
import { MINUTE } from "./constants.js";
import { evaluate, type SignalInput } from "./engine.js";
import { cleanInput } from "../../../test/helpers/signal-input.js";

// The flapping rule (decision 0049): pay needs the last hour mostly healthy, given enough probes.
const now = new Date("2026-11-20T12:00:00Z");
const judged = (over: Partial<SignalInput>) => evaluate(cleanInput(now, over), now);

describe("flapping", () => {
  it("fires under the uptime_1h floor of 80 % and over 2 errors in 30 minutes, with at least 4 probes", () => {
    expect(judged({ probes1h: 10, healthy1h: 7 }).reason_codes).toEqual(["flapping"]);
    expect(judged({ probes1h: 10, healthy1h: 8 }).reason_codes).toEqual([]);
    expect(judged({ probes1h: 12, healthy1h: 10, probes30m: 6, healthy30m: 3 }).reason_codes).toEqual(["flapping"]);
    expect(judged({ probes1h: 12, healthy1h: 10, probes30m: 6, healthy30m: 4 }).reason_codes).toEqual([]);
    expect(judged({ probes1h: 3, healthy1h: 1, probes30m: 3, healthy30m: 1 }).reason_codes).toEqual([]);
    // One failure among a new listing's four probes is failing's alone, though 75 % is under the floor.
    expect(judged({ probes1h: 4, healthy1h: 3, probes30m: 4, healthy30m: 3, failStreak: 1 }).reason_codes).toEqual(["failing"]);
    expect(judged({ probes1h: 5, healthy1h: 3, probes30m: 5, healthy30m: 3 }).reason_codes).toEqual(["flapping"]);
  });

  it("turns the issue's flapper from pay to investigate the moment it is back", () => {
    // Failed about 90 % of the hour, healthy at its newest probe: neither dead nor failing.
    const back = judged({ probes1h: 60, healthy1h: 5, probes30m: 57, healthy30m: 2, failStreak: 0, lastProbeAt: new Date(now.getTime() - MINUTE) });
    expect(back).toMatchObject({ ok: true, warnings: [], reason_codes: ["flapping"], recommended_action: "investigate", confidence: 1 });
  });

  it("leaves a dead endpoint to dead, and needs fresh evidence", () => {
    expect(judged({ probes1h: 10, healthy1h: 2, failStreak: 3 }).reason_codes).toEqual(["dead"]);
    expect(judged({ probes1h: 10, healthy1h: 2, failStreak: 1 }).reason_codes).toEqual(["failing", "flapping"]);
    expect(judged({ probes1h: 10, healthy1h: 2, lastProbeAt: new Date(now.getTime() - 61 * MINUTE) }).reason_codes).toEqual(["no_history"]);
  });
});
