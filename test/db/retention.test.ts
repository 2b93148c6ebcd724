import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { RETENTION_MS, applyRetention, deleteHourlyRollupsBefore, deleteOlderThan, deleteRawProbesBefore } from "../../src/db/retention.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { insertListings } from "./fixtures.js";

const NOW = new Date("2026-11-20T12:00:00.000Z");
const HOUR = 3_600_000;

describe("retention", () => {
  let h: TestDb;
  let ids: number[];
  beforeAll(async () => {
    h = await createTestDb();
    ids = await insertListings(h.db, 10);
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    for (const table of ["probes", "probe_hourly", "webhook_deliveries", "watches", "flag_history"] as const) {
      await h.db.deleteFrom(table).execute();
    }
  });

  // `old` probes spread over the 10 hours before `cutoff`, `fresh` ones after it.
  async function seedProbes(cutoff: Date, old: number, fresh: number): Promise<void> {
    await sql`
      insert into probes (listing_id, probed_at, outcome, status_code, latency_ms)
      select (${sql.val(ids)}::bigint[])[1 + g % 10], ${cutoff}::timestamptz - (g % 600 + 1) * interval '1 minute', 'healthy', 402, 100
      from generate_series(1, ${old}::int) as g
      union all
      select (${sql.val(ids)}::bigint[])[1 + g % 10], ${cutoff}::timestamptz + (g % 60) * interval '1 second', 'error', 500, 50
      from generate_series(1, ${fresh}::int) as g`.execute(h.db);
  }

  const count = async (table: "probes" | "probe_hourly") =>
    (
      await h.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n;

  it("deletes exactly the rows before the cutoff, in batches, and returns the count", async () => {
    const cutoff = new Date(NOW.getTime() - 3 * HOUR);
    await seedProbes(cutoff, 1234, 300);

    expect(await deleteRawProbesBefore(h.db, cutoff, { batchSize: 100 })).toBe(1234);
    expect(await count("probes")).toBe(300);
    const oldest = await h.db
      .selectFrom("probes")
      .select((eb) => eb.fn.min("probed_at").as("t"))
      .executeTakeFirstOrThrow();
    expect(oldest.t!.getTime()).toBeGreaterThanOrEqual(cutoff.getTime());
    expect(await deleteRawProbesBefore(h.db, cutoff, { batchSize: 100 })).toBe(0);
  });

  it("stops after maxBatches so one run stays bounded", async () => {
    const cutoff = NOW;
    await seedProbes(cutoff, 1000, 0);

    expect(await deleteRawProbesBefore(h.db, cutoff, { batchSize: 100, maxBatches: 3 })).toBe(300);
    expect(await count("probes")).toBe(700);
    expect(await deleteRawProbesBefore(h.db, cutoff, { batchSize: 300 })).toBe(700);
  });

  it("deletes old hourly rollups by bucket", async () => {
    await h.db
      .insertInto("probe_hourly")
      .values(
        Array.from({ length: 10 * 24 }, (_, i) => ({
          listing_id: ids[i % ids.length]!,
          bucket: new Date(NOW.getTime() - (Math.floor(i / ids.length) + 1) * 24 * HOUR),
          probes: 6,
          healthy: 6,
          errors: 0,
        })),
      )
      .execute();

    // Buckets 1..24 days back, 10 per day: those 9 or more days back go.
    expect(await deleteHourlyRollupsBefore(h.db, new Date(NOW.getTime() - RETENTION_MS.probe_hourly), { batchSize: 7 })).toBe(160);
    expect(await count("probe_hourly")).toBe(80);
  });

  it("compares date columns by UTC calendar day", async () => {
    await h.db
      .insertInto("flag_history")
      .values(["2026-11-17", "2026-11-18", "2026-11-19"].map((day) => ({ listing_id: ids[0]!, day, reasons: ["zombie"] })))
      .execute();
    expect(await deleteOlderThan(h.db, "flag_history", new Date("2026-11-18T23:30:00.000Z"))).toBe(1);
    const days = await h.db.selectFrom("flag_history").select("day").orderBy("day").execute();
    expect(days.map((d) => d.day)).toEqual(["2026-11-18", "2026-11-19"]);
  });

  it("keeps pending webhook deliveries however old", async () => {
    const watch = await h.db
      .insertInto("watches")
      .values({
        url: "https://svc.example/r0",
        url_normalized: "https://svc.example/r0",
        webhook_url: "https://hooks.example/in",
        webhook_host: "hooks.example",
        signals: ["dead"],
        secret_hash: Buffer.alloc(32),
        signing_key: Buffer.alloc(32),
        expires_at: NOW,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const old = new Date(NOW.getTime() - 60 * 24 * HOUR);
    await h.db
      .insertInto("webhook_deliveries")
      .values(
        (["pending", "delivered", "failed"] as const).map((status) => ({
          watch_id: watch.id,
          signal: "dead",
          state: "fired" as const,
          payload: { status },
          status,
          created_at: old,
        })),
      )
      .execute();

    expect(await deleteOlderThan(h.db, "webhook_deliveries", NOW)).toBe(2);
    expect(await h.db.selectFrom("webhook_deliveries").select("status").execute()).toEqual([{ status: "pending" }]);
  });

  it("keeps quote terms a listing's history still names; drops orphans after a day and spans after 30 days", async () => {
    const terms = (digest: string) => ({
      digest,
      x402_version: 2,
      scheme: "exact",
      network: "eip155:84532",
      amount: "1000",
      first_seen_at: new Date(NOW.getTime() - 2 * 24 * HOUR),
    });
    await h.db
      .insertInto("quote_terms")
      .values([terms("named"), terms("orphan")])
      .execute();
    const span = (digest: string, lastSeen: Date) => ({
      listing_id: ids[0]!,
      source: "probe" as const,
      profile: "fetch",
      digest,
      first_seen_at: lastSeen,
      last_seen_at: lastSeen,
    });
    await h.db
      .insertInto("listing_quotes")
      .values([span("named", NOW), span("gone", new Date(NOW.getTime() - 31 * 24 * HOUR))])
      .execute();
    const counts = await applyRetention(h.db, NOW);
    expect(counts).toMatchObject({ quote_terms: 1, listing_quotes: 1 });
    expect((await h.db.selectFrom("quote_terms").select("digest").execute()).map((r) => r.digest)).toEqual(["named"]);
    expect((await h.db.selectFrom("listing_quotes").select("digest").execute()).map((r) => r.digest)).toEqual(["named"]);
  });

  it("applies the whole policy and reports every table", async () => {
    await seedProbes(new Date(NOW.getTime() - RETENTION_MS.probes), 50, 20);
    const counts = await applyRetention(h.db, NOW);
    expect(Object.keys(counts).sort()).toEqual(Object.keys(RETENTION_MS).sort());
    expect(counts.probes).toBe(50);
    expect(await count("probes")).toBe(20);
  });

  it("rejects a non-positive batch size", async () => {
    await expect(deleteRawProbesBefore(h.db, NOW, { batchSize: 0 })).rejects.toThrow(RangeError);
  });
});
