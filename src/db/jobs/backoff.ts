/** How long a failed job waits before it is due again. */
export interface Backoff {
  /** The wait after failure number `n` (1-based), before jitter. */
  delayMs(n: number): number;
  /** The wait is scaled by a random factor in [1 - jitter, 1 + jitter]. */
  jitter: number;
}

/** Jitter spreads the retries of jobs that failed together (one outage) over time. */
export const backoffDelay = (b: Backoff, n: number, random: () => number): number => Math.round(b.delayMs(n) * (1 - b.jitter + 2 * b.jitter * random()));

/** Doubling from `base` with each failure, up to `max`. */
export const doubling = (base: number, max: number) => (n: number) => Math.min(max, base * 2 ** Math.min(Math.max(n, 1) - 1, 30));
/** A fixed schedule of waits; failures past its end wait its last step. */
export const steps = (waits: readonly number[]) => (n: number) => waits[Math.min(Math.max(n, 1), waits.length) - 1]!;
