import { describe, expect, it } from "vitest";
import { HOUR, DAY } from "./constants.js";
import { confidenceOf, evaluate, type SignalInput } from "./engine.js";
import { cleanInput } from "../../../test/helpers/signal-input.js";

const now = new Date("2026-11-20T12:00:00Z");
const ago = (ms: number) => new Date(now.getTime() - ms);

/** A clean, well-observed endpoint: no warning fires. */
const clean = (over: Partial<SignalInput> = {}): SignalInput => cleanInput(now, over);

const fires = (over: Partial<SignalInput>, mode: "preflight" | "forensics" = "forensics") => evaluate(clean(over), now, mode).reason_codes;

describe("signal engine thresholds", () => {
  it("reports nothing for a clean endpoint and recommends pay", () => {
    expect(evaluate(clean(), now)).toEqual({ ok: true, warnings: [], reason_codes: [], risk_score: 0, confidence: 1, recommended_action: "pay" });
  });

  it.each<[string, Partial<SignalInput>, Partial<SignalInput>]>([
    ["dead", { failStreak: 3 }, { failStreak: 2 }],
    ["failing", { failStreak: 1 }, { failStreak: 0 }],
    ["zombie", { serviceFailedEndpoints: 2, serviceHealthyEndpoints: 0 }, { serviceFailedEndpoints: 1, serviceHealthyEndpoints: 0 }],
    ["decoy_price_extreme", { priceUsdc: 1000 }, { priceUsdc: 999.999999 }],
    ["suspicious_high_price", { priceUsdc: 10 }, { priceUsdc: 9.999999 }],
    ["slow", { avgLatency1hMs: 2000 }, { avgLatency1hMs: 1999 }],
    ["new_provider", { serviceSince: ago(DAY - 1) }, { serviceSince: ago(DAY) }],
    [
      "never_paid_zombie",
      { listedSince: ago(30 * DAY), l30dCalls: 0, lastCalledAt: null },
      { listedSince: ago(30 * DAY - 1), l30dCalls: 0, lastCalledAt: null },
    ],
    ["proxy_markup", { priceUsdc: 0.03, markupReferenceUsdc: 0.01 }, { priceUsdc: 0.0299, markupReferenceUsdc: 0.01 }],
    ["wildcard_402", { wildcard402: true }, { wildcard402: false }],
    ["spa_fallback", { spaFallback: true }, { spaFallback: false }],
    ["no_history", { lastProbeAt: ago(HOUR + 1) }, { lastProbeAt: ago(HOUR) }],
    ["unknown_endpoint", { known: false }, { known: true }],
    ["dead_7d", { probes7d: 20, healthy7d: 0 }, { probes7d: 19, healthy7d: 0 }],
    ["mostly_dead", { probes7d: 20, healthy7d: 9 }, { probes7d: 20, healthy7d: 10 }],
    ["slow_p99", { p99Latency7dMs: 5000 }, { p99Latency7dMs: 4999 }],
    ["price_outlier_high", { priceRatioToMedian: 10 }, { priceRatioToMedian: 9.99 }],
    ["high_concentration", { concentrationPct: 5 }, { concentrationPct: 4.9 }],
    ["unchallenged", { unchallenged1h: 1 }, { unchallenged1h: 0 }],
  ])("%s fires at its threshold and not just below", (code, at, below) => {
    expect(fires(at)).toContain(code);
    expect(fires(below)).not.toContain(code);
  });

  it("does not call a provider new once a catalog reports paid calls of it, however recent its first sighting", () => {
    expect(fires({ serviceSince: ago(HOUR), providerCalled: false })).toContain("new_provider");
    expect(fires({ serviceSince: ago(HOUR), providerCalled: true })).not.toContain("new_provider");
  });

  it("calls a run of failures dead however recent the last healthy probe was, and reports dead alone", () => {
    expect(fires({ failStreak: 3, probes30m: 4, healthy30m: 1 })).toEqual(["dead"]);
    expect(fires({ failStreak: 10 })).not.toContain("failing");
    // Stale failures: once the prober has been silent for the no_history window, neither holds.
    expect(fires({ failStreak: 5, lastProbeAt: ago(HOUR + 1) })).toEqual(["no_history"]);
  });

  it("calls a service a zombie only when every distinct endpoint failed on its own evidence", () => {
    // One endpoint failed, the other has not enough probes yet: not a zombie (issue 23's false alert).
    expect(fires({ serviceEndpoints: 2, serviceFailedEndpoints: 1, serviceHealthyEndpoints: 0 })).not.toContain("zombie");
    expect(fires({ serviceEndpoints: 1, serviceFailedEndpoints: 1, serviceHealthyEndpoints: 0 })).toContain("zombie");
    // A snapshot stored before the endpoint counts existed reads them as 0: never a zombie.
    expect(fires({ serviceEndpoints: 0, serviceFailedEndpoints: 0, serviceHealthyEndpoints: 0 })).not.toContain("zombie");
    expect(fires({ known: false, serviceEndpoints: 1, serviceFailedEndpoints: 1 })).not.toContain("zombie");
  });

  it("calls a listing dead_7d only once it has been catalogued 7 days (decision 0037)", () => {
    const dead = { probes7d: 40, healthy7d: 0 };
    // 25 minutes old with 40 failed probes (a demo cadence): no week of evidence yet.
    expect(fires({ ...dead, listedSince: ago(25 * 60_000) })).not.toContain("dead_7d");
    expect(fires({ ...dead, listedSince: ago(7 * DAY - 1) })).not.toContain("dead_7d");
    expect(fires({ ...dead, listedSince: ago(7 * DAY) })).toContain("dead_7d");
    expect(fires({ ...dead, listedSince: null })).not.toContain("dead_7d");
  });

  it("reads a paid listing's 2xx without a challenge as a caution: investigate, never ok=false, counted for confidence", () => {
    const v = evaluate(clean({ probes1h: 0, probes30m: 0, healthy30m: 0, unchallenged1h: 6 }), now);
    expect(v).toMatchObject({ ok: true, warnings: [], reason_codes: ["unchallenged"], recommended_action: "investigate", risk_score: 0.5, confidence: 1 });
  });

  it("keeps forensics codes out of preflight", () => {
    expect(fires({ probes7d: 20, healthy7d: 0, p99Latency7dMs: 9000 }, "preflight")).toEqual([]);
  });
});

describe("verdict", () => {
  it.each<[string, Partial<SignalInput>, { ok: boolean; action: string; risk: number }]>([
    ["decoy: skip", { priceUsdc: 2500 }, { ok: false, action: "skip", risk: 1 }],
    // Wallet-drain codes are critical (decision 0035): skip never comes with ok=true.
    ["suspicious price: skip, not ok", { priceUsdc: 25 }, { ok: false, action: "skip", risk: 1 }],
    ["dead in catalog: use_alternatives", { failStreak: 3 }, { ok: false, action: "use_alternatives", risk: 1 }],
    ["latest probe failed, not yet dead: investigate", { failStreak: 2 }, { ok: true, action: "investigate", risk: 0.6 }],
    ["unknown URL whose live probe and retry failed: ok false", { known: false, failStreak: 2, probes1h: 1 }, { ok: false, action: "investigate", risk: 1 }],
    ["warning only: investigate", { avgLatency1hMs: 2500 }, { ok: true, action: "investigate", risk: 0.3 }],
    ["unknown: investigate", { known: false }, { ok: true, action: "investigate", risk: 0.4 }],
    [
      "low-confidence critical: investigate",
      { probes1h: 1, serviceFailedEndpoints: 2, serviceHealthyEndpoints: 0 },
      { ok: false, action: "investigate", risk: 1 },
    ],
  ])("%s", (_name, over, want) => {
    const v = evaluate(clean(over), now);
    expect({ ok: v.ok, action: v.recommended_action, risk: v.risk_score }).toEqual(want);
    // Every test input here fires spec codes only (failing aside): warnings are reason_codes less the additions.
    expect(v.warnings).toEqual(v.reason_codes.filter((c) => c !== "failing"));
  });

  it("lets a catalog-level code inform without changing the action, so forensics and preflight agree", () => {
    const input = clean({ concentrationPct: 40 });
    const forensics = evaluate(input, now, "forensics");
    expect(forensics.warnings).toEqual(["high_concentration"]);
    expect(forensics.recommended_action).toBe("pay");
    expect(evaluate(input, now, "preflight").recommended_action).toBe("pay");
    // With an endpoint warning beside it, the action follows that warning.
    expect(evaluate(clean({ concentrationPct: 40, avgLatency1hMs: 2500 }), now, "forensics").recommended_action).toBe("investigate");
  });

  it("saturates risk at the most severe warning and is stable", () => {
    const input = clean({ avgLatency1hMs: 3000, wildcard402: true, spaFallback: true });
    const a = evaluate(input, now);
    expect(a.risk_score).toBe(0.6);
    expect(evaluate(structuredClone(input), now)).toEqual(a);
  });

  it("grows confidence with the probes behind the verdict", () => {
    expect([0, 1, 3, 6, 60].map(confidenceOf)).toEqual([0, 0.2, 0.52, 1, 1]);
  });
});
