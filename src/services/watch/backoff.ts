import { backoffDelay, steps, type Backoff } from "../../db/jobs/backoff.js";
import { RETRY_DELAYS_MS, RETRY_JITTER } from "./constants.js";

/**
 * Failed deliveries follow the RETRY_DELAYS_MS schedule, each step scaled by a random factor in
 * [1 - RETRY_JITTER, 1 + RETRY_JITTER] so receivers that failed together do not all retry in the same second.
 */
export const DELIVERY_BACKOFF: Backoff = { delayMs: steps(RETRY_DELAYS_MS), jitter: RETRY_JITTER };

/** The wait after failed attempt number `attempts` (1-based). */
export const retryDelayMs = (attempts: number, random: () => number = Math.random): number => backoffDelay(DELIVERY_BACKOFF, attempts, random);
