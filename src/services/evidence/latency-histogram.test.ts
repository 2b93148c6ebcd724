import { describe, expect, it } from "vitest";
import {
  BIN_COUNT,
  BIN_LOWER_BOUNDS,
  MAX_RELATIVE_ERROR,
  MAX_TRACKED_MS,
  binOf,
  binValue,
  histogramCount,
  histogramOf,
  mergeHistograms,
  nearestRank,
  percentile,
} from "./latency-histogram.js";

// Seeded, so a failure reproduces.
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function exactPercentile(samples: number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[nearestRank(q, sorted.length) - 1]!;
}

type Gen = (r: () => number) => number;
const normal = (r: () => number) => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
const DISTRIBUTIONS: Record<string, Gen> = {
  "log-normal around 200 ms": (r) => Math.round(Math.exp(Math.log(200) + 0.6 * normal(r))),
  "uniform 0..10000 ms": (r) => Math.floor(r() * 10_001),
  "exponential, mean 400 ms": (r) => Math.round(-400 * Math.log(1 - r())),
  "bimodal 40 ms / 3 s": (r) => (r() < 0.8 ? 30 + Math.floor(r() * 20) : 2500 + Math.floor(r() * 1000)),
  "tiny 0..80 ms": (r) => Math.floor(r() * 81),
  "heavy tail up to the timeout": (r) => Math.min(10_000, Math.round(50 / (1 - r()) ** 0.8)),
};

const QUANTILES = [0.5, 0.9, 0.99, 1];

describe("latency bins", () => {
  it("start at 0, grow strictly, and cover the tracked range", () => {
    expect(BIN_LOWER_BOUNDS[0]).toBe(0);
    for (let i = 1; i < BIN_COUNT; i++) expect(BIN_LOWER_BOUNDS[i]!).toBeGreaterThan(BIN_LOWER_BOUNDS[i - 1]!);
    expect(BIN_LOWER_BOUNDS[BIN_COUNT - 1]!).toBeLessThanOrEqual(MAX_TRACKED_MS);
    expect(BIN_COUNT).toBeLessThan(300);
  });

  it("represent every integer sample of a bin within the error bound", () => {
    for (let bin = 0; bin < BIN_COUNT - 1; bin++) {
      const lo = BIN_LOWER_BOUNDS[bin]!;
      const hi = BIN_LOWER_BOUNDS[bin + 1]! - 1;
      const rep = binValue(bin);
      expect(Number.isInteger(rep)).toBe(true);
      for (const v of [lo, hi]) {
        if (v === 0) expect(rep).toBe(0);
        else expect(Math.abs(rep - v) / v).toBeLessThanOrEqual(MAX_RELATIVE_ERROR);
      }
    }
  });

  it("put each value in the bin whose range holds it", () => {
    for (let bin = 1; bin < BIN_COUNT; bin++) {
      const lo = BIN_LOWER_BOUNDS[bin]!;
      expect(binOf(lo)).toBe(bin);
      expect(binOf(lo - 1)).toBe(bin - 1);
    }
    expect(binOf(-5)).toBe(0);
    expect(binOf(12.9)).toBe(12);
    expect(binOf(10 * MAX_TRACKED_MS)).toBe(BIN_COUNT - 1);
    expect(() => binOf(Number.NaN)).toThrow(RangeError);
  });
});

describe("latency percentiles", () => {
  for (const [name, gen] of Object.entries(DISTRIBUTIONS)) {
    it(`are within 2% of exact for ${name}, merged from hourly histograms`, () => {
      const rand = mulberry32(name.length * 7919);
      // 7 days x 24 hours x 6 probes, with some hours missing probes.
      const hours: number[][] = Array.from({ length: 168 }, () => Array.from({ length: Math.floor(rand() * 7) }, () => gen(rand)));
      const all = hours.flat();
      const merged = mergeHistograms(...hours.map((h) => histogramOf(h)));

      expect(histogramCount(merged)).toBe(all.length);
      expect(merged).toEqual(histogramOf(all));
      for (const q of QUANTILES) {
        const exact = exactPercentile(all, q);
        const estimate = percentile(merged, q)!;
        if (exact === 0) expect(estimate).toBe(0);
        else expect(Math.abs(estimate - exact) / exact, `q=${q} exact=${exact} estimate=${estimate}`).toBeLessThanOrEqual(0.02);
      }
    });
  }

  it("are within 2% for many random sample sets of every size", () => {
    const rand = mulberry32(42);
    const gens = Object.values(DISTRIBUTIONS);
    for (let round = 0; round < 500; round++) {
      const gen = gens[round % gens.length]!;
      const n = 1 + Math.floor(rand() * 300);
      const samples = Array.from({ length: n }, () => gen(rand));
      const hist = histogramOf(samples);
      for (const q of [...QUANTILES, 0.01 + 0.99 * rand()]) {
        const exact = exactPercentile(samples, q);
        const estimate = percentile(hist, q)!;
        expect(Math.abs(estimate - exact)).toBeLessThanOrEqual(0.02 * exact);
      }
    }
  });

  it("are null for an empty histogram and reject a bad quantile", () => {
    expect(percentile([], 0.5)).toBeNull();
    expect(percentile(mergeHistograms(), 0.99)).toBeNull();
    expect(() => percentile([10, 1], 0)).toThrow(RangeError);
    expect(() => percentile([10, 1], 1.5)).toThrow(RangeError);
  });
});

describe("histogram encoding", () => {
  it("is sparse [bin, count] pairs in bin order", () => {
    expect(histogramOf([])).toEqual([]);
    expect(histogramOf([5, 5, 3])).toEqual([3, 1, 5, 2]);
    expect(histogramOf([200, 201, 5000]).length).toBeLessThanOrEqual(6);
  });

  it("merges in any order to the same result", () => {
    const a = histogramOf([1, 50, 700]);
    const b = histogramOf([50, 9000]);
    const c = histogramOf([]);
    expect(mergeHistograms(a, b, c)).toEqual(mergeHistograms(c, b, a));
    expect(mergeHistograms(mergeHistograms(a, b), c)).toEqual(mergeHistograms(a, mergeHistograms(b, c)));
  });

  it("rejects malformed histograms", () => {
    expect(() => mergeHistograms([1])).toThrow(/pairs/);
    expect(() => mergeHistograms([BIN_COUNT, 1])).toThrow(/outside/);
    expect(() => mergeHistograms([3, -1])).toThrow(/count/);
  });
});
