import { DECOY_BLEND, THRESHOLDS } from "../signals/constants.js";
import type { SignalInput, Verdict } from "../signals/engine.js";

/** 0 below 1 USDC, 0.5 at 10 USDC rising log-linearly to 1 at 1000 USDC. */
export function priceExtremity(price: number | null): number {
  if (price === null || price < 1) return 0;
  if (price >= THRESHOLDS.decoyPriceUsdc) return 1;
  if (price < THRESHOLDS.suspiciousPriceUsdc) return 0.2;
  return Math.min(1, 0.5 + (0.5 * (Math.log10(price) - 1)) / 2);
}

/**
 * Noisy-OR: 1 - Π(1 - weight_i * score_i). Any one strong piece of evidence (a 1000+ USDC price)
 * is enough to approach 1; weak pieces add up without exceeding 1. Stable for the same input.
 */
export function decoyProbability(input: SignalInput, verdict: Verdict): number {
  const neverPaid = verdict.warnings.includes("never_paid_zombie") ? 1 : input.l30dCalls === 0 ? 0.5 : 0;
  const hostTrap = input.wildcard402 || input.spaFallback ? 1 : 0;
  const probes = input.probes7d > 0 ? input.probes7d : input.probes1h;
  const healthy =
    input.probes7d > 0 ? input.healthy7d : input.probes1h > 0 ? Math.round((input.healthy30m / Math.max(1, input.probes30m)) * input.probes1h) : 0;
  const errors = probes > 0 ? 1 - healthy / probes : 0;
  const scores: Array<[number, number]> = [
    [DECOY_BLEND.price, priceExtremity(input.priceUsdc)],
    [DECOY_BLEND.neverPaid, neverPaid],
    [DECOY_BLEND.hostTrap, hostTrap],
    [DECOY_BLEND.errors, errors],
  ];
  const p = 1 - scores.reduce((keep, [w, s]) => keep * (1 - w * s), 1);
  return Math.round(p * 1000) / 1000;
}
