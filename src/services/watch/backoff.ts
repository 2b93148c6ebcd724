import { RETRY_DELAYS_MS, RETRY_JITTER } from "./constants.js";

/**
 * The wait after failed attempt number `attempts` (1-based): the schedule's step, scaled by a
 * random factor in [1 - RETRY_JITTER, 1 + RETRY_JITTER] so receivers that failed together do
 * not all retry in the same second.
 */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number {
  const step = RETRY_DELAYS_MS[Math.min(Math.max(attempts, 1), RETRY_DELAYS_MS.length) - 1]!;
  return Math.round(step * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random()));
}
