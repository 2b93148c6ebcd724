import { BACKOFF_BASE_MS, BACKOFF_JITTER, BACKOFF_MAX_MS } from "./constants.js";

/**
 * Delay before polling a failing source again: doubling from BACKOFF_BASE_MS with each
 * consecutive failure up to BACKOFF_MAX_MS, with jitter so sources that failed together (one
 * outage) are not retried together. `random` returns [0, 1).
 */
export function backoffDelayMs(consecutiveFailures: number, random: () => number): number {
  const exponent = Math.min(Math.max(consecutiveFailures, 1) - 1, 30);
  const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** exponent);
  return Math.round(delay * (1 - BACKOFF_JITTER + 2 * BACKOFF_JITTER * random()));
}
