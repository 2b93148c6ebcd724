import { describe, expect, it } from "vitest";
import { latencyOf } from "./forensics-report.js";

describe("forensics latency", () => {
  it("reports no percentile above the slowest probe seen (histogram bounds can pass it)", () => {
    // The figures of the issue: a bucket bound of 2548 ms over a slowest probe of 2526 ms.
    const row = { p50_latency_7d_ms: 180, p90_latency_7d_ms: 2548, p99_latency_7d_ms: 2548, max_latency_7d_ms: 2526 };
    expect(latencyOf(row)).toEqual({ p50_ms: 180, p90_ms: 2526, p99_ms: 2526, max_ms: 2526 });
  });

  it("keeps unknown values null and leaves percentiles alone when no maximum is known", () => {
    expect(latencyOf(undefined)).toEqual({ p50_ms: null, p90_ms: null, p99_ms: null, max_ms: null });
    expect(latencyOf({ p50_latency_7d_ms: 10, p90_latency_7d_ms: null, p99_latency_7d_ms: 30, max_latency_7d_ms: null })).toEqual({
      p50_ms: 10,
      p90_ms: null,
      p99_ms: 30,
      max_ms: null,
    });
  });
});
