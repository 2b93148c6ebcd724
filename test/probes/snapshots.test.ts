import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { histogramOf, nearestRank } from "../../src/services/evidence/latency-histogram.js";
import { recomputeSnapshots } from "../../src/services/evidence/index.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { insertListings } from "./helpers.js";

const HOUR = 3_600_000;
let ctx: TestContext;
let ids: number[];
const t = (iso: string) => new Date(`2026-11-20T${iso}Z`);
const snapshot = (id: number) => ctx.db.db.selectFrom("signal_snapshots").selectAll().where("listing_id", "=", id).executeTakeFirstOrThrow();

async function bucket(listing: number, hoursBack: number, probes: number, healthy: number, latencies: number[] = []) {
  await ctx.db.db
    .insertInto("probe_hourly")
    .values({
      listing_id: listing,
      bucket: new Date(t("12:00:00").getTime() - hoursBack * HOUR),
      probes,
      healthy,
      errors: probes - healthy,
      latency_count: latencies.length,
      latency_sum_ms: latencies.reduce((s, v) => s + v, 0),
      latency_max_ms: latencies.length ? Math.max(...latencies) : null,
      latency_hist: histogramOf(latencies),
    })
    .execute();
}

beforeAll(async () => {
  ctx = await createTestContext();
  ctx.clock.set(t("12:00:00"));
  ids = await insertListings(ctx.db.db, [
    { url: "https://raw.test/a" },
    { url: "https://hourly.test/b" },
    { url: "https://pct.test/c" },
    { url: "https://small.test/d" },
    { url: "https://idle.test/e" },
    { url: "https://gone.test/f", isActive: false },
  ]);
});
afterAll(() => ctx.close());

describe("recomputeSnapshots", () => {
  it("30 min and 1 h windows from raw probes match hand-computed values", async () => {
    const [a] = ids as [number];
    const raw: Array<[string, "healthy" | "error", number | null, number | null, string | null]> = [
      ["11:59:00", "healthy", 402, 100, "0.02"],
      ["11:45:00", "error", 500, 50, null],
      ["11:31:00", "healthy", 200, 300, null],
      ["11:30:00", "error", null, null, null], // on the 30 min boundary: outside (now - 30 min, now]
      ["11:05:00", "healthy", 200, 500, null],
      ["11:00:00", "healthy", 402, 9_000, "0.5"], // on the 1 h boundary: outside
      ["10:40:00", "healthy", 402, 700, "0.9"],
    ];
    await ctx.db.db
      .insertInto("probes")
      .values(
        raw.map(([at, outcome, status_code, latency_ms, price_usdc]) => ({
          listing_id: a,
          probed_at: t(at),
          outcome,
          status_code,
          latency_ms,
          price_usdc,
          challenge_version: price_usdc ? 2 : null,
        })),
      )
      .execute();
    // Columns the signal engine owns must survive a recompute; so must its detail keys.
    await ctx.db.db
      .insertInto("signal_snapshots")
      .values({
        listing_id: a,
        computed_at: t("11:00:00"),
        warnings: ["dead"],
        critical: true,
        blacklist_reasons: ["zombie"],
        delist_reasons: ["zombie"],
        risk_score: 1,
        flagged_since: t("01:00:00"),
        detail: { engine: "kept" },
      })
      .execute();

    expect(await recomputeSnapshots(ctx, [a, a])).toBe(1);
    const s = await snapshot(a);
    expect(s).toMatchObject({
      computed_at: t("12:00:00"),
      probes_30m: 3,
      healthy_30m: 2,
      errors_30m: 1,
      probes_1h: 5,
      healthy_1h: 3,
      uptime_1h_pct: 60,
      // (100 + 50 + 300 + 500) / 4 = 237.5, rounded half up
      avg_latency_1h_ms: 238,
      last_probe_at: t("11:59:00"),
      last_outcome: "healthy",
      last_status_code: 402,
      probes_7d: 0,
      uptime_7d_pct: null,
      uptime_48h_pct: null,
      p50_latency_7d_ms: null,
      warnings: ["dead"],
      critical: true,
      blacklist_reasons: ["zombie"],
      delist_reasons: ["zombie"],
      risk_score: 1,
      flagged_since: t("01:00:00"),
    });
    expect(s.detail).toEqual({ quote: null, engine: "kept", last_price_usdc: "0.02", last_challenge_version: 2, last_price_at: t("11:59:00").toISOString() });
  });

  it("keeps the last probe once raw probes have aged out", async () => {
    const [a] = ids as [number];
    await ctx.db.db.deleteFrom("probes").where("listing_id", "=", a).execute();
    await recomputeSnapshots(ctx, [a]);
    expect(await snapshot(a)).toMatchObject({ probes_1h: 0, uptime_1h_pct: null, last_probe_at: t("11:59:00"), last_status_code: 402 });
    expect((await snapshot(a)).detail).toMatchObject({ last_price_usdc: "0.02" });
  });

  it("48 h and 7 d uptime from hourly buckets, open hour included", async () => {
    const b = ids[1]!;
    await bucket(b, 0, 6, 6); // the open hour
    await bucket(b, 47, 10, 5); // oldest of the 48
    await bucket(b, 48, 10, 0); // in 7 d, not in 48 h
    await bucket(b, 167, 4, 4); // oldest of the 168
    await bucket(b, 168, 100, 0); // outside
    await recomputeSnapshots(ctx, [b]);
    // 7 d: 30 probes, 15 healthy; 48 h: 16 probes, 11 healthy.
    expect(await snapshot(b)).toMatchObject({ probes_7d: 30, healthy_7d: 15, uptime_7d_pct: 50, uptime_48h_pct: 68.75 });
  });

  it("7-day percentiles from merged histograms are within 2% of the exact values", async () => {
    const c = ids[2]!;
    const all: number[] = [];
    for (let h = 0; h < 168; h++) {
      // Six probes an hour with a long tail: 40 ms .. about 9 s.
      const lat = Array.from({ length: 6 }, (_, i) => 40 + (((h * 6 + i) * 7919) % 900) + (i === 5 && h % 10 === 0 ? 8_000 : 0));
      all.push(...lat);
      await bucket(c, h, 6, 6, lat);
    }
    await bucket(c, 170, 6, 6, [60_000, 60_000, 60_000, 60_000, 60_000, 60_000]); // older than 7 d
    await recomputeSnapshots(ctx, [c]);
    const s = await snapshot(c);
    const sorted = [...all].sort((x, y) => x - y);
    const exact = (q: number) => sorted[nearestRank(q, sorted.length) - 1]!;
    for (const [q, got] of [
      [0.5, s.p50_latency_7d_ms],
      [0.9, s.p90_latency_7d_ms],
      [0.99, s.p99_latency_7d_ms],
    ] as const) {
      expect(Math.abs(got! - exact(q)) / exact(q), `q=${q}`).toBeLessThanOrEqual(0.02);
    }
    expect(s.max_latency_7d_ms).toBe(sorted.at(-1));
  });

  it("a small case by hand: 10 samples of 10..100 ms over two hours", async () => {
    const d = ids[3]!;
    await bucket(d, 0, 5, 5, [10, 20, 30, 40, 50]);
    await bucket(d, 1, 5, 5, [60, 70, 80, 90, 100]);
    await recomputeSnapshots(ctx, [d]);
    const s = await snapshot(d);
    // Nearest rank: p50 = 5th = 50 ms, p90 = 9th = 90 ms, p99 = 10th = 100 ms, max 100 ms.
    expect(s.p50_latency_7d_ms).toBe(50);
    expect(Math.abs(s.p90_latency_7d_ms! - 90)).toBeLessThanOrEqual(1.8);
    expect(Math.abs(s.p99_latency_7d_ms! - 100)).toBeLessThanOrEqual(2);
    expect(s.max_latency_7d_ms).toBe(100);
  });

  it("without ids, covers every active listing and only those", async () => {
    await recomputeSnapshots(ctx);
    const rows = await ctx.db.db.selectFrom("signal_snapshots").select("listing_id").orderBy("listing_id").execute();
    expect(rows.map((r) => Number(r.listing_id))).toEqual(ids.slice(0, 5));
    expect(await snapshot(ids[4]!)).toMatchObject({ probes_1h: 0, probes_7d: 0, last_probe_at: null, uptime_7d_pct: null });
  });
});
