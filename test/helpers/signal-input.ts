import { DAY, HOUR, MINUTE } from "../../src/services/signals/constants.js";
import type { SignalInput } from "../../src/services/signals/engine.js";

/** A clean, well-observed endpoint at `now`: no warning fires. */
export const cleanInput = (now: Date, over: Partial<SignalInput> = {}): SignalInput => {
  const ago = (ms: number) => new Date(now.getTime() - ms);
  return {
    known: true,
    priceUsdc: 0.01,
    probes30m: 3,
    healthy30m: 3,
    failStreak: 0,
    probes1h: 6,
    healthy1h: 6,
    avgLatency1hMs: 120,
    lastProbeAt: ago(5 * MINUTE),
    probes7d: 1000,
    healthy7d: 1000,
    p99Latency7dMs: 400,
    serviceEndpoints: 2,
    serviceFailedEndpoints: 0,
    serviceHealthyEndpoints: 2,
    serviceSince: ago(10 * DAY),
    providerCalled: false,
    listedSince: ago(10 * DAY),
    l30dCalls: 1200,
    lastCalledAt: ago(HOUR),
    wildcard402: false,
    spaFallback: false,
    markupReferenceUsdc: 0.01,
    priceRatioToMedian: 1,
    concentrationPct: 1,
    listedQuote: null,
    observedQuote: null,
    ...over,
  };
};
