import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EXTRA_CODES, SPEC_PREFLIGHT_CODES, SPEC_WARNING_CODES } from "@x402-lookout/contracts/codes";
import { ALL_CODES, FORENSICS_CODES, PREFLIGHT_CODES, type WarningCode } from "./constants.js";
import { verdictFrom } from "./engine.js";

/**
 * warnings speaks the spec's closed enumeration, reason_codes every code (decision 0045): the
 * split moves where a code is shown, never what the verdict means.
 */
describe("verdictFrom splits warnings from reason_codes", () => {
  it("shows an addition in reason_codes only, and still judges by it", () => {
    expect(verdictFrom(["cloaking"], true, 1)).toEqual({
      ok: false,
      warnings: [],
      reason_codes: ["cloaking"],
      risk_score: 1,
      confidence: 1,
      recommended_action: "skip",
    });
    const v = verdictFrom(["failing", "slow", "source_disagrees", "unknown_endpoint"], false, 0.2);
    expect(v.reason_codes).toEqual(["unknown_endpoint", "slow", "failing", "source_disagrees"]);
    expect(v.warnings).toEqual(["unknown_endpoint", "slow"]);
    expect(v).toMatchObject({ ok: true, risk_score: 0.6, recommended_action: "investigate" });
  });

  it("keeps forensics codes out of preflight altogether, and in forensics' warnings", () => {
    const fired = ["dead_7d", "price_switch", "high_concentration"];
    expect(verdictFrom(fired, true, 1, "preflight")).toMatchObject({ warnings: [], reason_codes: ["price_switch"], recommended_action: "skip" });
    expect(verdictFrom(fired, true, 1, "forensics")).toMatchObject({
      warnings: ["dead_7d", "high_concentration"],
      reason_codes: ["price_switch", "dead_7d", "high_concentration"],
    });
  });

  it("treats a code this version does not know (a newer pipeline's) as an addition that counts", () => {
    const v = verdictFrom(["a_newer_code", "slow"], true, 1);
    expect(v).toMatchObject({ warnings: ["slow"], reason_codes: ["slow", "a_newer_code"], ok: true, risk_score: 1, recommended_action: "investigate" });
  });

  it("names as additions exactly the codes the spec does not enumerate", () => {
    for (const code of SPEC_PREFLIGHT_CODES) expect(PREFLIGHT_CODES).toContain(code);
    expect(new Set([...SPEC_WARNING_CODES, ...EXTRA_CODES])).toEqual(new Set(ALL_CODES));
    expect(EXTRA_CODES.filter((c) => (SPEC_WARNING_CODES as readonly string[]).includes(c))).toEqual([]);
    for (const code of EXTRA_CODES) expect(verdictFrom([code], true, 1, "forensics").warnings, code).toEqual([]);
  });

  it("holds for every combination: warnings are the view's spec codes of reason_codes, in order; the verdict is as without the split", () => {
    fc.assert(
      fc.property(fc.subarray([...ALL_CODES] as WarningCode[]), fc.constantFrom("preflight" as const, "forensics" as const), (fired, mode) => {
        const v = verdictFrom(fired, true, 1, mode);
        const spec: readonly string[] = mode === "forensics" ? SPEC_WARNING_CODES : SPEC_PREFLIGHT_CODES;
        expect(v.warnings).toEqual(v.reason_codes.filter((c) => spec.includes(c)));
        const shown = fired.filter((c) => mode === "forensics" || !(FORENSICS_CODES as readonly string[]).includes(c));
        expect(new Set(v.reason_codes)).toEqual(new Set(shown));
        // Judging the reason_codes again gives the same verdict: nothing rests on warnings alone.
        expect(verdictFrom(v.reason_codes, true, 1, mode)).toEqual(v);
      }),
      { numRuns: 2000 },
    );
  });
});
