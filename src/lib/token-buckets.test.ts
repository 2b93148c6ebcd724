import { describe, expect, it } from "vitest";
import { TokenBuckets } from "./token-buckets.js";

describe("the search rate limit's buckets", () => {
  it("grants a burst, then one token per refill interval, per key", () => {
    const b = new TokenBuckets({ capacity: 3, perSecond: 0.5, maxKeys: 10 });
    expect([0, 1, 2, 3].map(() => b.take("a", 0))).toEqual([0, 0, 0, 2]);
    expect(b.take("b", 0)).toBe(0);
    expect(b.take("a", 1_000)).toBe(1);
    expect(b.take("a", 2_000)).toBe(0);
    expect(b.take("a", 2_000)).toBe(2);
    expect(b.take("a", 60_000)).toBe(0); // refilled, but never past the burst:
    expect([0, 1, 2].map(() => b.take("a", 60_000))).toEqual([0, 0, 2]);
  });

  it("keeps at most maxKeys addresses, forgetting the least recently used", () => {
    const b = new TokenBuckets({ capacity: 1, perSecond: 0.01, maxKeys: 100 });
    for (let i = 0; i < 1_000; i++) b.take(`10.0.${i >> 8}.${i & 255}`, 0);
    expect(b.size).toBe(100);
    expect(b.take("10.0.3.231", 0)).toBeGreaterThan(0); // the newest is still held (spent)
    expect(b.take("10.0.0.0", 0)).toBe(0); // the oldest was forgotten: full again
  });
});
