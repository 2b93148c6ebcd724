/**
 * Each listing has a fixed phase within the probe interval, derived from its id, so a catalog's
 * probes spread evenly over the interval and a listing is probed at the same offset every time
 * (whichever process probes it). Time is epoch milliseconds; the phase survives restarts and a
 * change of PROBE_INTERVAL_SECONDS simply maps every listing onto the new interval.
 */

// murmur3's 32-bit finaliser: neighbouring ids land far apart.
function mix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The listing's offset (ms) within every interval. */
export function phaseMs(listingId: number, intervalMs: number): number {
  const high = Math.floor(listingId / 2 ** 32);
  return mix32((listingId >>> 0) ^ mix32(high + 0x9e3779b9)) % intervalMs;
}

/**
 * The listing's next slot after a probe at `now`: the first slot at least half an interval away.
 * A listing probed on its slot is next probed exactly one interval later; one probed off its
 * slot (first sight, a backlog) joins its phase without being probed twice within moments.
 */
export function nextSlot(listingId: number, now: Date, intervalMs: number): Date {
  const phase = phaseMs(listingId, intervalMs);
  const earliest = now.getTime() + intervalMs / 2;
  const k = Math.ceil((earliest - phase) / intervalMs);
  return new Date(k * intervalMs + phase);
}
