import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BIN_LOWER_BOUNDS, binOf, histogramOf } from "../../src/services/evidence/latency-histogram.js";
import { hourBucket, rollupProbes } from "../../src/services/evidence/index.js";
import type { ProbeOutcome } from "../../src/db/schema.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { insertListings } from "./fixtures.js";

const H10 = new Date("2026-11-20T10:00:00.000Z");
const at = (minutes: number) => new Date(H10.getTime() + minutes * 60_000);

interface P {
  minute: number;
  outcome: ProbeOutcome;
  status: number | null;
  latency: number | null;
  price?: string;
}

describe("latency_bin() in SQL", () => {
  let h: TestDb;
  beforeAll(async () => {
    h = await createTestDb();
  });
  afterAll(async () => {
    await h.close();
  });

  it("agrees with binOf() for every millisecond up to past the last bin", async () => {
    const last = BIN_LOWER_BOUNDS[BIN_LOWER_BOUNDS.length - 1]! + 1000;
    const { rows } = await sql<{ bins: number[] }>`
      select array_agg(latency_bin(g) order by g) as bins from generate_series(-3, ${last}::int) as g`.execute(h.db);
    const expected = Array.from({ length: last + 4 }, (_, i) => binOf(i - 3));
    expect(rows[0]!.bins).toEqual(expected);
  });
});

describe("rollupProbes", () => {
  let h: TestDb;
  let a: number;
  let b: number;
  beforeAll(async () => {
    h = await createTestDb();
    [a, b] = (await insertListings(h.db, 2)) as [number, number];
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    await h.db.deleteFrom("probes").execute();
    await h.db.deleteFrom("probe_hourly").execute();
  });

  const insert = (listingId: number, probes: P[]) =>
    h.db
      .insertInto("probes")
      .values(
        probes.map((p) => ({
          listing_id: listingId,
          probed_at: at(p.minute),
          outcome: p.outcome,
          status_code: p.status,
          error_kind: p.status === null ? "timeout" : null,
          latency_ms: p.latency,
          price_usdc: p.price ?? null,
          challenge_version: p.outcome === "healthy" ? 2 : null,
        })),
      )
      .execute();

  const rows = () => h.db.selectFrom("probe_hourly").selectAll().orderBy("listing_id").orderBy("bucket").execute();

  it("aggregates each listing-hour from raw probes", async () => {
    const first: P[] = [
      { minute: 0, outcome: "healthy", status: 402, latency: 120, price: "0.002" },
      { minute: 10, outcome: "healthy", status: 402, latency: 130, price: "0.001" },
      { minute: 20, outcome: "error", status: 500, latency: 4000 },
      { minute: 30, outcome: "error", status: null, latency: null },
      { minute: 40, outcome: "healthy", status: 402, latency: 121, price: "0.003" },
    ];
    await insert(a, first);
    await insert(a, [{ minute: 65, outcome: "healthy", status: 200, latency: 90 }]);
    await insert(b, [{ minute: 5, outcome: "error", status: 404, latency: 15 }]);

    expect(await rollupProbes(h.db, at(20))).toBe(3);

    const [a10, a11, b10] = await rows();
    expect(a10).toMatchObject({
      listing_id: a,
      bucket: H10,
      probes: 5,
      healthy: 3,
      errors: 2,
      latency_count: 4,
      latency_sum_ms: 120 + 130 + 4000 + 121,
      latency_max_ms: 4000,
      latency_hist: histogramOf([120, 130, 4000, 121]),
      status_counts: { "402": 3, "500": 1, network_error: 1 },
      price_usdc_last: "0.003",
      price_usdc_min: "0.001",
      price_usdc_max: "0.003",
    });
    expect(a11).toMatchObject({ listing_id: a, bucket: at(60), probes: 1, healthy: 1, status_counts: { "200": 1 } });
    expect(a11!.price_usdc_last).toBeNull();
    expect(b10).toMatchObject({ listing_id: b, bucket: H10, probes: 1, errors: 1, latency_hist: histogramOf([15]) });
  });

  it("recomputes whole buckets, so re-running and an open hour are safe", async () => {
    await insert(a, [{ minute: 50, outcome: "healthy", status: 402, latency: 100 }]);
    await rollupProbes(h.db, at(55));
    await rollupProbes(h.db, at(55));
    expect(await rows()).toMatchObject([{ probes: 1, healthy: 1 }]);

    await insert(a, [{ minute: 59, outcome: "error", status: 503, latency: 300 }]);
    await rollupProbes(h.db, at(59));
    expect(await rows()).toMatchObject([{ probes: 2, healthy: 1, errors: 1, latency_hist: histogramOf([100, 300]), status_counts: { "402": 1, "503": 1 } }]);
  });

  it("leaves hours before `since` alone", async () => {
    await insert(a, [
      { minute: 1, outcome: "healthy", status: 402, latency: 100 },
      { minute: 61, outcome: "healthy", status: 402, latency: 100 },
    ]);
    expect(await rollupProbes(h.db, at(60))).toBe(1);
    expect((await rows()).map((r) => r.bucket)).toEqual([at(60)]);
  });

  it("buckets by UTC hour whatever the session time zone", async () => {
    expect(hourBucket(new Date("2026-11-20T10:59:59.999Z"))).toEqual(H10);
    await insert(a, [{ minute: 45, outcome: "healthy", status: 402, latency: 10 }]);
    await h.db.connection().execute(async (conn) => {
      // Half-hour offset: a local-time date_trunc would start the bucket at 09:30 UTC.
      await sql`set time zone 'Asia/Kolkata'`.execute(conn);
      try {
        await rollupProbes(conn, at(0));
      } finally {
        await sql`reset time zone`.execute(conn);
      }
    });
    expect((await rows()).map((r) => r.bucket)).toEqual([H10]);
  });
});
