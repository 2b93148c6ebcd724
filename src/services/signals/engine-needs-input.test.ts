import { describe, expect, it } from "vitest";
import { evaluate, type SignalInput } from "./engine.js";
import { cleanInput } from "../../../test/helpers/signal-input.js";

// The needs_input rule (decision 0046): the hour's answers mostly a 400/422 refusing our input, none healthy.
const now = new Date("2026-11-20T12:00:00Z");
const judged = (over: Partial<SignalInput>) => evaluate(cleanInput(now, { probes30m: 0, healthy30m: 0, probes1h: 0, healthy1h: 0, ...over }), now);

describe("needs_input", () => {
  it("fires when at least half the hour's answers refused our input and none quoted", () => {
    expect(judged({ needsInput1h: 1 }).reason_codes).toEqual(["needs_input"]);
    expect(judged({ needsInput1h: 3, probes1h: 3 }).reason_codes).toContain("needs_input");
    expect(judged({ needsInput1h: 2, unchallenged1h: 1 }).reason_codes).toContain("needs_input");
    expect(judged({ needsInput1h: 3, probes1h: 4 }).reason_codes).not.toContain("needs_input");
    expect(judged({ needsInput1h: 0 }).reason_codes).not.toContain("needs_input");
  });

  it("stays quiet while a probe with the declared input quoted in the hour", () => {
    expect(judged({ needsInput1h: 5, probes1h: 1, healthy1h: 1 }).reason_codes).not.toContain("needs_input");
  });

  it("is a caution: investigate, never ok=false, each answer counted for confidence", () => {
    const v = judged({ needsInput1h: 6 });
    expect(v).toMatchObject({ ok: true, warnings: [], reason_codes: ["needs_input"], recommended_action: "investigate", risk_score: 0.4, confidence: 1 });
    expect(judged({ needsInput1h: 1 }).confidence).toBe(0.2);
  });

  it("reads an uncatalogued URL's one live answer the same way", () => {
    const v = judged({ known: false, needsInput1h: 1, lastProbeAt: now });
    expect(v.reason_codes).toEqual(["unknown_endpoint", "needs_input"]);
    expect(v).toMatchObject({ ok: true, recommended_action: "investigate", confidence: 0.2 });
  });
});
