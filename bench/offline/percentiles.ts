export interface Percentiles {
  p50: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentiles of a sample (sorted in place). */
export function percentiles(sample: Float64Array): Percentiles {
  sample.sort();
  const at = (q: number) => sample[Math.min(sample.length - 1, Math.ceil(q * sample.length) - 1)]!;
  return { p50: at(0.5), p99: at(0.99), max: sample[sample.length - 1]! };
}

export const fmt = (p: Percentiles) => `p50 ${p.p50.toFixed(1)} µs, p99 ${p.p99.toFixed(1)} µs, max ${p.max.toFixed(1)} µs`;
