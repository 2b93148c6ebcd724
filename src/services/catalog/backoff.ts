import { backoffDelay, doubling, type Backoff } from "../../db/jobs/backoff.js";
import { BACKOFF_BASE_MS, BACKOFF_JITTER, BACKOFF_MAX_MS } from "./constants.js";

/**
 * A failing source waits doubling from BACKOFF_BASE_MS with each consecutive failure up to
 * BACKOFF_MAX_MS, with jitter so sources that failed together (one outage) are not retried together.
 */
export const SOURCE_BACKOFF: Backoff = { delayMs: doubling(BACKOFF_BASE_MS, BACKOFF_MAX_MS), jitter: BACKOFF_JITTER };

/** Delay before polling a failing source again. `random` returns [0, 1). */
export const backoffDelayMs = (consecutiveFailures: number, random: () => number): number => backoffDelay(SOURCE_BACKOFF, consecutiveFailures, random);

/**
 * A page answered 429 is asked again after the server's Retry-After (seconds or an HTTP date),
 * kept within [RATE_LIMIT_MIN_WAIT_MS, RATE_LIMIT_MAX_WAIT_MS] so a zero cannot make us hammer
 * and a far date cannot park the poll; without the header, RATE_LIMIT_DEFAULT_WAIT_MS.
 * A page refused RATE_LIMIT_RETRIES times in a row, or a wait past the poll budget, ends the poll.
 */
export const RATE_LIMIT_MIN_WAIT_MS = 1_000;
export const RATE_LIMIT_MAX_WAIT_MS = 60_000;
export const RATE_LIMIT_DEFAULT_WAIT_MS = 5_000;
export const RATE_LIMIT_RETRIES = 5;

/** Milliseconds a Retry-After value asks for, or null when there is none readable. */
export function retryAfterMs(value: string | string[] | undefined, nowMs: number): number | null {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return null;
  if (/^\d{1,9}$/.test(text)) return Number(text) * 1000;
  // An HTTP date names a weekday or month; bare numbers with signs or decimals are not dates.
  const at = /[a-z]/i.test(text) ? Date.parse(text) : NaN;
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

/** How long to wait before asking a rate-limited page again. */
export function rateLimitWaitMs(retryAfter: string | string[] | undefined, nowMs: number): number {
  const asked = retryAfterMs(retryAfter, nowMs) ?? RATE_LIMIT_DEFAULT_WAIT_MS;
  return Math.min(RATE_LIMIT_MAX_WAIT_MS, Math.max(RATE_LIMIT_MIN_WAIT_MS, asked));
}
