import { describe, expect, it } from "vitest";
import { rankScore, tierScore } from "./alternative-score.js";

describe("an alternative's score", () => {
  it("weighs a tier above any uptime and latency, then 1 % of uptime as 500 ms of latency", () => {
    expect(tierScore(0, rankScore(0, 10_000))).toBeGreaterThan(tierScore(1, rankScore(100, 0)));
    expect(rankScore(99, 500)).toBe(rankScore(98, 0));
    expect(tierScore(4, rankScore(99.5, 230))).toBe(1495.2);
  });

  it("ranks a candidate without evidence last in its tier, and caps latency at 10 s", () => {
    expect(rankScore(null, null)).toBe(-100);
    expect(rankScore(0, 60_000)).toBe(rankScore(0, 10_000));
    expect(rankScore(0.1, 9_999)).toBeGreaterThan(rankScore(null, null));
  });
});
