import { sql, type Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/client.js";
import type { Database } from "../../src/db/schema.js";
import { createTestDb, testDatabaseUrl, type TestDb } from "../helpers/db.js";

// Deterministic values of every type the schema uses, so both dialects can be compared.
const SAMPLE = sql<Record<string, unknown>>`
  select
    '2026-11-20T12:34:56.789Z'::timestamptz as ts,
    42::int8 as i8,
    (select count(*) from (values (1), (2), (3)) as v(x)) as cnt,
    12.345000::numeric as num,
    0.000001::numeric as tiny,
    '{"a": {"b": [1, 2]}, "n": null}'::jsonb as obj,
    array[1, 9007199254740991]::int8[] as i8s,
    array[3, 4]::int4[] as i4s,
    array['a', 'b c', null]::text[] as texts,
    array['2026-11-20T00:00:00Z'::timestamptz] as tss,
    array[1.10, 2]::numeric[] as nums,
    '2026-11-20'::date as day,
    array['2026-11-20'::date] as days,
    '\\x0102ff'::bytea as bytes,
    7::smallint as small,
    1.5::float8 as dbl,
    true as yes,
    '00000000-0000-4000-8000-000000000000'::uuid as id,
    null::int8 as nothing,
    '1 day 02:00:00'::interval as span`;

async function sample(db: Kysely<Database>) {
  const { rows } = await SAMPLE.execute(db);
  return rows[0]!;
}

describe("type mapping", () => {
  let h: TestDb;
  beforeAll(async () => {
    h = await createTestDb();
  });
  afterAll(async () => {
    await h.close();
  });

  it("maps every PostgreSQL type the schema uses to one JS type", async () => {
    const row = await sample(h.db);
    expect(row.ts).toEqual(new Date("2026-11-20T12:34:56.789Z"));
    expect(row.i8).toBe(42);
    expect(row.cnt).toBe(3);
    expect(row.num).toBe("12.345000");
    expect(row.tiny).toBe("0.000001");
    expect(row.obj).toEqual({ a: { b: [1, 2] }, n: null });
    expect(row.i8s).toEqual([1, 9007199254740991]);
    expect(row.i4s).toEqual([3, 4]);
    expect(row.texts).toEqual(["a", "b c", null]);
    expect(row.tss).toEqual([new Date("2026-11-20T00:00:00Z")]);
    expect(row.nums).toEqual(["1.10", "2"]);
    expect(row.day).toBe("2026-11-20");
    expect(row.days).toEqual(["2026-11-20"]);
    expect(Buffer.isBuffer(row.bytes)).toBe(true);
    expect([...(row.bytes as Buffer)]).toEqual([1, 2, 255]);
    expect(row.small).toBe(7);
    expect(row.dbl).toBe(1.5);
    expect(row.yes).toBe(true);
    expect(row.id).toBe("00000000-0000-4000-8000-000000000000");
    expect(row.nothing).toBeNull();
    expect(row.span).toBe("1 day 02:00:00");
  });

  it("refuses an int8 that a JS number cannot hold exactly", async () => {
    await expect(sql`select 9007199254740993::int8 as big`.execute(h.db)).rejects.toThrow(/safe JavaScript integer/);
    // The connection is still usable afterwards.
    expect((await sql<{ one: number }>`select 1::int8 as one`.execute(h.db)).rows).toEqual([{ one: 1 }]);
  });

  it("round-trips typed rows through Kysely", async () => {
    const at = new Date("2026-11-20T10:00:00.000Z");
    await h.db
      .insertInto("services")
      .values({ service_id: "svc", name: "Service", origin: "https://svc.example", first_seen_at: at, last_seen_at: at })
      .execute();
    const listing = await h.db
      .insertInto("listings")
      .values({
        url: "https://svc.example/a",
        url_normalized: "https://svc.example/a",
        service_id: "svc",
        host: "svc.example",
        tags: ["search", "it's"],
        price_usdc: "0.001",
        price_atomic: 1000,
        source_url: "https://catalog.example",
        first_seen_at: at,
        last_seen_at: "2026-11-20T11:00:00Z",
        raw: { accepts: [{ amount: "1000" }], nested: { ok: true } },
        l30d_calls: 12,
      })
      .returningAll()
      .executeTakeFirstOrThrow();

    expect(listing.id).toBeTypeOf("number");
    expect(listing.method).toBe("POST");
    expect(listing.tags).toEqual(["search", "it's"]);
    expect(listing.price_usdc).toBe("0.001");
    expect(listing.price_atomic).toBe("1000");
    expect(listing.first_seen_at).toEqual(at);
    expect(listing.last_seen_at).toEqual(new Date("2026-11-20T11:00:00Z"));
    expect(listing.raw).toEqual({ accepts: [{ amount: "1000" }], nested: { ok: true } });
    expect(listing.l30d_calls).toBe(12);
    expect(listing.is_active).toBe(true);

    await h.db
      .insertInto("flag_history")
      .values({ listing_id: listing.id, day: "2026-11-20", reasons: ["zombie"] })
      .execute();
    await h.db
      .insertInto("app_state")
      .values({ key: "list", value: JSON.stringify([1, "two"]) })
      .execute();
    await h.db
      .insertInto("probe_hourly")
      .values({
        listing_id: listing.id,
        bucket: at,
        probes: 2,
        healthy: 1,
        errors: 1,
        latency_hist: [120, 2],
        status_counts: { "402": 1, network_error: 1 },
        latency_sum_ms: 5_000_000_000,
      })
      .execute();

    const counted = await h.db
      .selectFrom("listings")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(counted.n).toBe(1);
    expect(await h.db.selectFrom("flag_history").select(["day", "reasons"]).execute()).toEqual([{ day: "2026-11-20", reasons: ["zombie"] }]);
    expect(await h.db.selectFrom("app_state").select("value").executeTakeFirst()).toEqual({ value: [1, "two"] });
    expect(await h.db.selectFrom("probe_hourly").select(["latency_hist", "status_counts", "latency_sum_ms"]).executeTakeFirst()).toEqual({
      latency_hist: [120, 2],
      status_counts: { "402": 1, network_error: 1 },
      latency_sum_ms: 5_000_000_000,
    });
  });

  it("round-trips bytea as Buffer", async () => {
    const at = new Date("2026-11-20T10:00:00.000Z");
    const secret = Buffer.from([0, 1, 2, 250, 255]);
    const row = await h.db
      .insertInto("watches")
      .values({
        url: "https://x.example/a",
        url_normalized: "https://x.example/a",
        webhook_url: "https://hooks.example/in",
        webhook_host: "hooks.example",
        signals: ["dead"],
        secret_hash: secret,
        signing_key: Buffer.alloc(32, 7),
        expires_at: at,
      })
      .returning(["secret_hash", "signing_key", "alerts_remaining"])
      .executeTakeFirstOrThrow();
    expect(Buffer.isBuffer(row.secret_hash)).toBe(true);
    expect(row.secret_hash.equals(secret)).toBe(true);
    expect(row.signing_key?.equals(Buffer.alloc(32, 7))).toBe(true);
    expect(row.alerts_remaining).toBe(100);
  });
});

describe.runIf(testDatabaseUrl)("type mapping parity between PGlite and PostgreSQL", () => {
  it("returns identical values from both dialects", async () => {
    const lite = await openDatabase({ dataDir: "memory://" });
    const server = await openDatabase({ databaseUrl: testDatabaseUrl! });
    try {
      const [a, b] = await Promise.all([sample(lite.db), sample(server.db)]);
      expect(a).toEqual(b);
      for (const key of Object.keys(a)) {
        expect(Object.prototype.toString.call(a[key]), key).toBe(Object.prototype.toString.call(b[key]));
      }
    } finally {
      await Promise.all([lite.close(), server.close()]);
    }
  });
});
