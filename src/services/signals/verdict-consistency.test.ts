import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ALL_CODES, CRITICAL, INFORMATIONAL, WALLET_DRAIN, type WarningCode } from "./constants.js";
import { verdictFrom } from "./engine.js";

/**
 * A verdict never contradicts itself (issue 35, decision 0035): over every combination of codes
 * the rule table can fire, ok, risk_score and recommended_action agree, in both modes.
 */
describe("ok, risk and action agree for every combination of codes", () => {
  it("every wallet-drain code is critical", () => {
    for (const code of WALLET_DRAIN) expect(CRITICAL.has(code), code).toBe(true);
  });

  it("holds for generated sets of codes, known or not, at any confidence", () => {
    const codes = fc.subarray([...ALL_CODES] as WarningCode[]);
    fc.assert(
      fc.property(
        codes,
        fc.boolean(),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom("preflight" as const, "forensics" as const),
        (fired, known, confidence, mode) => {
          const v = verdictFrom(fired, known, confidence, mode);
          const critical = v.reason_codes.some((w) => CRITICAL.has(w));
          expect(v.ok).toBe(!critical);
          if (v.recommended_action === "skip" || v.recommended_action === "use_alternatives") expect(v.ok).toBe(false);
          if (!v.ok) expect(v.recommended_action).not.toBe("pay");
          expect(v.risk_score === 1).toBe(critical);
          if (v.reason_codes.length === 0) expect(v.risk_score).toBe(0);
          if (v.recommended_action === "pay") expect(v.reason_codes.every((w) => INFORMATIONAL.has(w)) && v.ok && known).toBe(true);
          if (v.reason_codes.some((w) => WALLET_DRAIN.has(w))) expect(v.recommended_action).toBe("skip");
        },
      ),
      { numRuns: 5000 },
    );
  });
});
