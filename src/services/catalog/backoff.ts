import { backoffDelay, doubling, type Backoff } from "../../db/jobs/backoff.js";
import { BACKOFF_BASE_MS, BACKOFF_JITTER, BACKOFF_MAX_MS } from "./constants.js";

/**
 * A failing source waits doubling from BACKOFF_BASE_MS with each consecutive failure up to
 * BACKOFF_MAX_MS, with jitter so sources that failed together (one outage) are not retried together.
 */
export const SOURCE_BACKOFF: Backoff = { delayMs: doubling(BACKOFF_BASE_MS, BACKOFF_MAX_MS), jitter: BACKOFF_JITTER };

/** Delay before polling a failing source again. `random` returns [0, 1). */
export const backoffDelayMs = (consecutiveFailures: number, random: () => number): number => backoffDelay(SOURCE_BACKOFF, consecutiveFailures, random);
