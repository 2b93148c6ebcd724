import { createHash } from "node:crypto";
import { FIRST_PROBE_SPREAD_MS } from "./constants.js";

/**
 * When a new listing gets its first probe: soon, but spread over a short window by a hash of
 * its key, so a catalog of thousands of new listings does not hit the prober in one instant,
 * and every process computes the same time for the same listing.
 */
export function firstProbeAt(now: Date, urlNormalized: string, method: string): Date {
  const h = createHash("sha256").update(`${method} ${urlNormalized}`).digest().readUInt32BE(0);
  return new Date(now.getTime() + (h % FIRST_PROBE_SPREAD_MS));
}
