import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { binOf } from "../../src/services/evidence/latency-histogram.js";
import { pruneProbeHistory, rollupListings } from "../../src/services/evidence/index.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { insertListings } from "./helpers.js";

let ctx: TestContext;
let a: number;
let b: number;
const t = (iso: string) => new Date(`2026-11-20T${iso}Z`);

beforeAll(async () => {
  ctx = await createTestContext();
  [a, b] = (await insertListings(ctx.db.db, [{ url: "https://a.test/x" }, { url: "https://b.test/y" }])) as [number, number];
});
afterAll(() => ctx.close());

type Raw = [string, "healthy" | "error", number | null, number | null, string | null];
async function insertRaw(listing: number, rows: Raw[]) {
  await ctx.db.db
    .insertInto("probes")
    .values(
      rows.map(([at, outcome, status, latency, price]) => ({
        listing_id: listing,
        probed_at: t(at),
        outcome,
        status_code: status,
        error_kind: status === null ? "timeout" : null,
        latency_ms: latency,
        price_usdc: price,
        challenge_version: price ? 2 : null,
      })),
    )
    .execute();
}

describe("hourly rollups", () => {
  it("match hand-computed buckets and are idempotent", async () => {
    await insertRaw(a, [
      ["10:05:00", "healthy", 402, 120, "0.01"],
      ["10:15:00", "healthy", 402, 80, "0.02"],
      ["10:25:00", "error", 500, 30, null],
      ["10:35:00", "error", null, null, null],
      ["10:45:00", "healthy", 200, 80, null],
      ["11:05:00", "healthy", 402, 2_000, "0.015"],
    ]);
    await insertRaw(b, [["10:10:00", "healthy", 200, 5, null]]);
    await rollupListings(ctx.db.db, [a], t("10:05:00"));
    const rows = await ctx.db.db.selectFrom("probe_hourly").selectAll().orderBy("bucket").execute();
    // Only listing a was asked for.
    expect(rows.map((r) => Number(r.listing_id))).toEqual([a, a]);
    const [h10, h11] = rows;
    expect(h10).toMatchObject({
      bucket: t("10:00:00"),
      probes: 5,
      healthy: 3,
      errors: 2,
      latency_count: 4,
      latency_sum_ms: 310,
      latency_max_ms: 120,
      status_counts: { "402": 2, "500": 1, "200": 1, network_error: 1 },
      price_usdc_last: "0.02",
      price_usdc_min: "0.01",
      price_usdc_max: "0.02",
    });
    // Sparse [bin, count] pairs, bins ascending; below 51 ms the bin is the millisecond itself.
    expect(binOf(30)).toBe(30);
    expect(h10!.latency_hist).toEqual([30, 1, binOf(80), 2, binOf(120), 1]);
    expect(h11).toMatchObject({ probes: 1, healthy: 1, errors: 0, latency_max_ms: 2_000, latency_hist: [binOf(2_000), 1], price_usdc_last: "0.015" });

    await rollupListings(ctx.db.db, [a], t("10:05:00"));
    const again = await ctx.db.db.selectFrom("probe_hourly").selectAll().orderBy("bucket").execute();
    expect(again).toEqual(rows);

    // A later probe in the open hour re-rolls that bucket whole.
    await insertRaw(a, [["11:15:00", "error", 503, 40, null]]);
    await rollupListings(ctx.db.db, [a], t("11:15:00"));
    const h11b = await ctx.db.db
      .selectFrom("probe_hourly")
      .selectAll()
      .where("bucket", "=", t("11:00:00"))
      .where("listing_id", "=", a)
      .executeTakeFirstOrThrow();
    expect(h11b).toMatchObject({ probes: 2, healthy: 1, errors: 1, latency_sum_ms: 2_040, status_counts: { "402": 1, "503": 1 } });
  });
});

describe("retention", () => {
  it("deletes raw probes past 3 h and rollups past 8 days in bounded batches", async () => {
    await ctx.db.db.deleteFrom("probes").execute();
    await ctx.db.db.deleteFrom("probe_hourly").execute();
    const now = t("12:00:00");
    // 2,500 raw probes older than 3 h, 10 within; 1,200 buckets older than 8 days, 24 within.
    await sql`
      insert into probes (listing_id, probed_at, outcome)
      select ${a}::bigint, ${now.toISOString()}::timestamptz - interval '3 hours' - make_interval(secs => g), 'healthy'
      from generate_series(1, 2500) as g`.execute(ctx.db.db);
    await sql`
      insert into probes (listing_id, probed_at, outcome)
      select ${a}::bigint, ${now.toISOString()}::timestamptz - make_interval(mins => g), 'healthy'
      from generate_series(1, 10) as g`.execute(ctx.db.db);
    await sql`
      insert into probe_hourly (listing_id, bucket, probes, healthy, errors)
      select ${b}::bigint, date_trunc('hour', ${now.toISOString()}::timestamptz - interval '8 days', 'UTC') - make_interval(hours => g), 1, 1, 0
      from generate_series(1, 1200) as g
      union all
      select ${b}::bigint, ${now.toISOString()}::timestamptz - make_interval(hours => g), 1, 1, 0
      from generate_series(0, 23) as g`.execute(ctx.db.db);

    const opts = { batchSize: 500, maxBatches: 2 };
    expect(await pruneProbeHistory(ctx.db.db, now, opts)).toEqual({ probes: 1_000, rollups: 1_000 });
    expect(await pruneProbeHistory(ctx.db.db, now, opts)).toEqual({ probes: 1_000, rollups: 200 });
    expect(await pruneProbeHistory(ctx.db.db, now, opts)).toEqual({ probes: 500, rollups: 0 });
    expect(await pruneProbeHistory(ctx.db.db, now, opts)).toEqual({ probes: 0, rollups: 0 });
    const left = await ctx.db.db
      .selectFrom("probes")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    const buckets = await ctx.db.db
      .selectFrom("probe_hourly")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(10);
    expect(Number(buckets.n)).toBe(24);
  });
});
