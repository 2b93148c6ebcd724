/**
 * Latency histograms as stored in `probe_hourly.latency_hist`.
 *
 * Bins: every whole millisecond has its own bin while that is the only way to stay accurate
 * (0..50 ms); above that a bin is as wide as it can be while every integer sample in it lies
 * within MAX_RELATIVE_ERROR of the bin's integer representative (bins grow by about 4%).
 * A percentile read from any number of merged hourly histograms is the representative of the
 * bin that holds the exact nearest-rank sample, so p50/p90/p99/max over 7 days stay within 2%
 * of the exact value however many hours are merged.
 *
 * Encoding: sparse pairs `[bin, count, bin, count, ...]`, bins ascending, counts > 0. An hour
 * holds about six probes of one listing, so a row carries at most a dozen integers instead of
 * a dense array of BIN_COUNT zeros (see docs/storage.md for the size arithmetic).
 *
 * FROZEN: stored rows and the SQL function `latency_bin()` (migration 0002) use these bounds.
 * Changing them needs a new migration that re-bins history; test/db/rollup.test.ts compares
 * the SQL function with binOf().
 */

/** Worst relative error of a bin representative against any integer sample in the bin. */
export const MAX_RELATIVE_ERROR = 0.0195;

/** Samples above this are counted in the last bin; probes time out long before (10 s). */
export const MAX_TRACKED_MS = 120_000;

/** Sparse histogram: [bin, count, bin, count, ...]. */
export type LatencyHistogram = number[];

// Harmonic mean: the point that minimises the worst relative error over [lo, hi].
function representative(lo: number, hi: number): number {
  return lo === 0 ? 0 : Math.round((2 * lo * hi) / (lo + hi));
}

function fitsOneBin(lo: number, hi: number): boolean {
  if (lo === 0) return hi === 0;
  const rep = representative(lo, hi);
  return (rep - lo) / lo <= MAX_RELATIVE_ERROR && (hi - rep) / hi <= MAX_RELATIVE_ERROR;
}

function buildBins(): { lower: number[]; reps: number[] } {
  const lower: number[] = [];
  const reps: number[] = [];
  let lo = 0;
  while (lo <= MAX_TRACKED_MS) {
    let hi = lo;
    while (fitsOneBin(lo, hi + 1)) hi++;
    lower.push(lo);
    reps.push(representative(lo, hi));
    lo = hi + 1;
  }
  return { lower, reps };
}

const BINS = buildBins();

/** Inclusive lower bound (ms) of each bin, ascending; bin i holds [lower[i], lower[i+1]). */
export const BIN_LOWER_BOUNDS: readonly number[] = Object.freeze(BINS.lower);
export const BIN_COUNT = BIN_LOWER_BOUNDS.length;

/** The bin of a latency in milliseconds (fractions are truncated, negatives count as 0). */
export function binOf(ms: number): number {
  if (!Number.isFinite(ms)) throw new RangeError(`latency must be a finite number of ms, got ${ms}`);
  const v = Math.max(0, Math.floor(ms));
  let lo = 0;
  let hi = BIN_COUNT - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (BINS.lower[mid]! <= v) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The value (ms) a bin reports. */
export function binValue(bin: number): number {
  const rep = BINS.reps[bin];
  if (rep === undefined) throw new RangeError(`latency bin ${bin} is outside 0..${BIN_COUNT - 1}`);
  return rep;
}

function toDense(hist: readonly number[], into: number[]): void {
  if (hist.length % 2 !== 0) throw new RangeError("latency histogram must hold [bin, count] pairs");
  for (let i = 0; i < hist.length; i += 2) {
    const bin = hist[i]!;
    const count = hist[i + 1]!;
    if (!Number.isInteger(bin) || bin < 0 || bin >= BIN_COUNT) {
      throw new RangeError(`latency bin ${bin} is outside 0..${BIN_COUNT - 1}`);
    }
    if (!Number.isInteger(count) || count < 0) throw new RangeError(`latency bin count ${count} is invalid`);
    into[bin]! += count;
  }
}

function toSparse(dense: readonly number[]): LatencyHistogram {
  const out: number[] = [];
  dense.forEach((count, bin) => {
    if (count > 0) out.push(bin, count);
  });
  return out;
}

/** A histogram of raw latency samples (ms). */
export function histogramOf(samples: Iterable<number>): LatencyHistogram {
  const dense = new Array<number>(BIN_COUNT).fill(0);
  for (const ms of samples) dense[binOf(ms)]! += 1;
  return toSparse(dense);
}

/** Sum of histograms (e.g. 168 hourly rows into one 7-day histogram). */
export function mergeHistograms(...hists: readonly (readonly number[])[]): LatencyHistogram {
  const dense = new Array<number>(BIN_COUNT).fill(0);
  for (const h of hists) toDense(h, dense);
  return toSparse(dense);
}

/** Number of samples in a histogram. */
export function histogramCount(hist: readonly number[]): number {
  let n = 0;
  for (let i = 1; i < hist.length; i += 2) n += hist[i]!;
  return n;
}

/** 1-based nearest rank of quantile q among n samples (the definition of "exact" used here). */
export function nearestRank(q: number, n: number): number {
  // The epsilon keeps 0.9 * 10 from becoming rank 10 through floating-point noise.
  return Math.min(n, Math.max(1, Math.ceil(q * n - 1e-9)));
}

/**
 * The q-quantile (0 < q <= 1) in ms, as the representative of the bin holding the
 * nearest-rank sample; null for an empty histogram. q = 1 gives the (binned) maximum.
 */
export function percentile(hist: readonly number[], q: number): number | null {
  if (!(q > 0 && q <= 1)) throw new RangeError(`quantile must be in (0, 1], got ${q}`);
  const merged = mergeHistograms(hist);
  const n = histogramCount(merged);
  if (n === 0) return null;
  const rank = nearestRank(q, n);
  let seen = 0;
  for (let i = 0; i < merged.length; i += 2) {
    seen += merged[i + 1]!;
    if (seen >= rank) return binValue(merged[i]!);
  }
  return binValue(merged[merged.length - 2]!);
}
