import { describe, expect, it } from "vitest";
import type { SignalInput } from "../signals/engine.js";
import { signalState } from "./signal-states.js";
import { cleanInput } from "../../../test/helpers/signal-input.js";

const now = new Date("2026-11-20T12:00:00Z");
const input = (over: Partial<SignalInput>): SignalInput => cleanInput(now, over);
const checked: { wildcard_402_checked_at: Date | null; spa_fallback_checked_at: Date | null } = { wildcard_402_checked_at: now, spa_fallback_checked_at: now };
const cleared = (code: Parameters<typeof signalState>[0], over: Partial<SignalInput>, host = checked) => signalState(code, false, input(over), host, now);

describe("a watched signal's state", () => {
  it("is unknown, not cleared, when the rule stays silent for want of evidence", () => {
    expect(cleared("decoy_price_extreme", { priceUsdc: null })).toBe("unknown");
    expect(cleared("decoy_price_extreme", {})).toBe("cleared");
    expect(cleared("dead", { probes1h: 0 })).toBe("unknown");
    expect(cleared("dead", { probes1h: 2 })).toBe("unknown"); // confidence 0.36: a hint only
    expect(cleared("dead", { probes1h: 3 })).toBe("cleared");
    // Counts of an hour in which the prober has since been silent prove nothing now.
    expect(cleared("dead", { probes1h: 6, lastProbeAt: new Date(now.getTime() - 3_600_001) })).toBe("unknown");
    expect(cleared("slow", { avgLatency1hMs: null, probes1h: 0 })).toBe("unknown");
    expect(cleared("zombie", { serviceEndpoints: 2, serviceFailedEndpoints: 1, serviceHealthyEndpoints: 0 })).toBe("unknown");
    expect(cleared("zombie", { serviceEndpoints: 2, serviceFailedEndpoints: 1, serviceHealthyEndpoints: 1 })).toBe("cleared");
    expect(cleared("wildcard_402", {}, { ...checked, wildcard_402_checked_at: null })).toBe("unknown");
  });

  it("is fired whenever the rule fires, whatever the confidence", () => {
    expect(signalState("dead", true, input({ probes1h: 0 }), checked, now)).toBe("fired");
  });
});
