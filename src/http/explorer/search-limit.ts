import type { Clock } from "../../lib/clock.js";
import { TokenBuckets } from "../../lib/token-buckets.js";

/**
 * Searches, filters and pages past the first, per client address: a burst of 20, then 10 a
 * minute. A person browsing never meets it; a script walking every filter to copy the catalog's
 * verdicts does (the paid snapshot sells those; decision 0024). 10,000 addresses at most in memory.
 */
export const SEARCH_LIMIT = { capacity: 20, perSecond: 10 / 60, maxKeys: 10_000 } as const;

/** Takes one search of `ip`: 0 when allowed, else the seconds to wait (Retry-After). */
export function createSearchLimit(clock: Clock): (ip: string) => number {
  const buckets = new TokenBuckets(SEARCH_LIMIT);
  return (ip) => buckets.take(ip, clock.now().getTime());
}
