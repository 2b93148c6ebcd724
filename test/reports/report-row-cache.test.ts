import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/client.js";
import type { ChannelListener, Notifications } from "../../src/db/notifications.js";
import { createReportRowCache } from "../../src/db/read-models/report-row-cache.js";
import { normalizeUrl } from "../../src/lib/url-normalize.js";
import { HOUR, MINUTE } from "../../src/services/signals/constants.js";
import { recompute, seedListing, seedProbes, series } from "../helpers/catalog-fixtures.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { admin, testDatabaseUrl } from "../helpers/db.js";

/** A feed the test drives by hand, and a lookup that counts its reads and can be held. */
function harness(maxRows = 10) {
  let listener: ChannelListener | undefined;
  const notifications: Notifications = {
    async listen(_channel, l) {
      listener = l;
      l.ready();
      return () => undefined;
    },
    close: async () => undefined,
  };
  const reads: string[] = [];
  let hold: Promise<void> | undefined;
  const row = (key: string) => ({ key, ids: [Number(key.slice(1))] });
  /** The active catalog: u1 .. u25, in URL order by number. */
  const catalog = Array.from({ length: 25 }, (_, i) => row(`u${i + 1}`));
  const cache = createReportRowCache({
    notifications,
    maxRows,
    lookup: async (url) => {
      reads.push(url);
      await hold;
      return row(url);
    },
    scan: async (after, limit) => {
      reads.push(`scan after ${after}`);
      const from = after === undefined ? 0 : catalog.findIndex((r) => r.key === after) + 1;
      return catalog.slice(from, from + limit);
    },
  });
  return { cache, reads, feed: () => listener!, holdReads: (p: Promise<void> | undefined) => (hold = p) };
}

describe("report-row cache", () => {
  it("keeps a row once read and drops it when the feed names its listing", async () => {
    const h = harness();
    await h.cache.ready;
    expect((await h.cache.get("u1"))!.ids).toEqual([1]);
    await h.cache.get("u1");
    expect(h.reads).toEqual(["u1"]);
    h.feed().message("7,1,9");
    await h.cache.get("u1");
    expect(h.reads).toEqual(["u1", "u1"]);
  });

  it("answers but does not keep a row whose listing was named while it was read", async () => {
    const h = harness();
    let release!: () => void;
    h.holdReads(new Promise<void>((r) => (release = r)));
    const named = h.cache.get("u2");
    const other = h.cache.get("u5");
    h.feed().message("2,99"); // the read of u2 may predate the change this announces; u5's is not named
    release();
    expect((await named)!.ids).toEqual([2]);
    expect((await other)!.ids).toEqual([5]);
    h.holdReads(undefined);
    await h.cache.get("u2");
    await h.cache.get("u5");
    expect(h.reads).toEqual(["u2", "u5", "u2"]);
    expect(h.cache.size).toBe(2);
  });

  it("empties and keeps nothing while the feed is lost, and again once it is heard", async () => {
    const h = harness();
    await h.cache.get("u3");
    h.feed().lost();
    expect(h.cache.size).toBe(0);
    await h.cache.get("u3");
    await h.cache.get("u3");
    expect(h.reads).toEqual(["u3", "u3", "u3"]);
    h.feed().ready();
    await h.cache.get("u3");
    await h.cache.get("u3");
    expect(h.reads.length).toBe(4);
  });

  it("holds at most maxRows rows, the oldest going first, and '*' empties it", async () => {
    const h = harness(3);
    for (const u of ["u1", "u2", "u3", "u4"]) await h.cache.get(u);
    expect(h.cache.size).toBe(3);
    await h.cache.get("u1"); // evicted
    await h.cache.get("u4"); // kept
    expect(h.reads).toEqual(["u1", "u2", "u3", "u4", "u1"]);
    h.feed().message("*");
    expect(h.cache.size).toBe(0);
  });

  it("warms with the active catalog a page at a time, up to maxRows", async () => {
    const h = harness(30);
    await h.cache.warm();
    expect(h.cache.size).toBe(25);
    expect(h.reads.filter((r) => r.startsWith("scan"))).toHaveLength(1); // one page held all 25 (WARM_PAGE rows a page)
    await h.cache.get("u25");
    expect(h.reads.filter((r) => !r.startsWith("scan"))).toEqual([]);
    const small = harness(10);
    await small.cache.warm();
    expect(small.cache.size).toBe(10);
  });

  it("with maxRows 0 keeps nothing and does not listen", async () => {
    let listened = false;
    const cache = createReportRowCache({
      notifications: { listen: async () => ((listened = true), () => undefined), close: async () => undefined },
      maxRows: 0,
      lookup: async () => ({ key: "u", ids: [1] }),
      scan: async () => [],
    });
    await cache.get("u");
    expect(cache.size).toBe(0);
    expect(listened).toBe(false);
  });
});

describe(`report rows cached per process, on ${testDatabaseUrl ? "PostgreSQL" : "PGlite"}`, () => {
  const URL_A = "https://weather.example/v1/forecast";
  const URL_B = "https://weather.example/v1/history";
  let ctx: TestContext;
  let idA: number;
  const find = () => ctx.services.reports.find;
  const rowOf = async (url: string) => (await find()([url])).get(url);

  beforeAll(async () => {
    ctx = await createTestContext();
    idA = await seedListing(ctx, { url: URL_A, service: "Skycast", provider: "0xaaa", price: "0.002" });
    await seedProbes(
      ctx,
      idA,
      series(HOUR, 10 * MINUTE, () => ({ latency: 120, price: "0.002" })),
    );
    await seedListing(ctx, { url: URL_B, service: "Skycast", provider: "0xaaa", price: "0.002" });
    await recompute(ctx);
    await find().cache.ready;
  });
  afterAll(async () => ctx?.close());

  /** Reads A and B (so both are kept), runs `write`, and says how many rows it left and what A reads now. */
  const dropped = async (write: () => Promise<unknown>) => {
    await rowOf(URL_A);
    await rowOf(URL_B);
    expect(find().cache.size).toBe(2);
    await write();
    const kept = find().cache.size;
    const a = await rowOf(URL_A);
    return { kept, a };
  };

  it("this process's own snapshot write reaches its next read at once", async () => {
    const before = await rowOf(URL_A);
    const r = await dropped(() => sql`update signal_snapshots set last_status_code = 599 where listing_id = ${idA}`.execute(ctx.db.db));
    expect(r.kept).toBe(1);
    expect(before!.last_status_code).not.toBe(599);
    expect(r.a!.last_status_code).toBe(599);
  });

  it("a host check drops every listing on the host; a lease or the delist bookkeeping drops nothing, the stored verdict does", async () => {
    await sql`insert into host_checks (host) values ('weather.example') on conflict do nothing`.execute(ctx.db.db);
    expect(
      (await dropped(() => sql`update host_checks set lease_owner = 'p1', next_check_at = now() where host = 'weather.example'`.execute(ctx.db.db))).kept,
    ).toBe(2);
    expect(
      (await dropped(() => sql`update signal_snapshots set flagged_since = now(), computed_at = now() where listing_id = ${idA}`.execute(ctx.db.db))).kept,
    ).toBe(2);
    // Every product reads the one stored verdict, so a cached row must not keep an old one.
    const judged = await dropped(() => sql`update signal_snapshots set warnings = '{dead}', risk_score = 1 where listing_id = ${idA}`.execute(ctx.db.db));
    expect(judged.kept).toBe(1);
    expect(judged.a!.warnings).toEqual(["dead"]);
    expect((await dropped(() => sql`update listings set next_probe_at = now(), last_seen_at = now() where id = ${idA}`.execute(ctx.db.db))).kept).toBe(2);
    const r = await dropped(() => sql`update host_checks set wildcard_402_detected = true where host = 'weather.example'`.execute(ctx.db.db));
    expect(r.kept).toBe(0);
    expect(r.a!.wildcard_402_detected).toBe(true);
  });

  it("a listing's price, its service's name and a listing on the same URL drop it", async () => {
    const price = await dropped(() => sql`update listings set price_usdc = 0.5 where id = ${idA}`.execute(ctx.db.db));
    expect(price.kept).toBe(1);
    expect(price.a!.listed_price_usdc).toBe("0.5");
    const renamed = await dropped(() => sql`update services set name = 'Skycast Pro' where service_id = 'skycast'`.execute(ctx.db.db));
    expect(renamed.kept).toBe(0);
    expect(renamed.a!.service_name).toBe("Skycast Pro");
    const sibling = await dropped(() =>
      sql`insert into listings (url, url_normalized, method, service_id, host, source_url, first_seen_at, last_seen_at)
          values (${URL_A}, ${normalizeUrl(URL_A)}, 'GET', 'skycast', 'weather.example', 'test', now(), now())`.execute(ctx.db.db),
    );
    expect(sibling.kept).toBe(1);
    const removed = await dropped(() => sql`delete from listings where url_normalized = ${normalizeUrl(URL_A)} and method = 'GET'`.execute(ctx.db.db));
    expect(removed.kept).toBe(1);
    expect(removed.a!.id).toBe(idA);
  });

  it.runIf(testDatabaseUrl)("another process's write reaches this one's cache through the feed", async () => {
    const other = await openDatabase({ databaseUrl: (ctx.db as { url?: string }).url!, poolSize: 1 });
    try {
      await rowOf(URL_A);
      await sql`update signal_snapshots set last_status_code = 598 where listing_id = ${idA}`.execute(other.db);
      await expect.poll(async () => (await rowOf(URL_A))!.last_status_code, { timeout: 5_000, interval: 20 }).toBe(598);
    } finally {
      await other.close();
    }
  });

  it.runIf(testDatabaseUrl)("a pooled connection lost mid-use empties the cache, which keeps rows again at once", async () => {
    const url = (ctx.db as { url?: string }).url!;
    await rowOf(URL_A);
    expect(find().cache.size).toBeGreaterThan(0);
    const killed = await admin(url, "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'x402-lookout' and datname = $1", [
      new URL(url).pathname.slice(1),
    ]);
    expect(killed.length).toBeGreaterThan(0);
    await expect.poll(() => find().cache.size, { timeout: 5_000, interval: 20 }).toBe(0);
    await rowOf(URL_A);
    expect(find().cache.size).toBe(1);
  });

  it.runIf(testDatabaseUrl)("a dropped listening connection empties the cache until it listens again", async () => {
    const url = (ctx.db as { url?: string }).url!;
    const database = new URL(url).pathname.slice(1);
    await rowOf(URL_A);
    expect(find().cache.size).toBeGreaterThan(0);
    const killed = await admin(url, "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'x402-lookout-listen' and datname = $1", [
      database,
    ]);
    expect(killed.length).toBe(1);
    await expect.poll(() => find().cache.size, { timeout: 5_000, interval: 20 }).toBe(0);
    // Reconnected, it keeps rows again.
    await expect
      .poll(
        async () => {
          await rowOf(URL_A);
          return find().cache.size;
        },
        { timeout: 10_000, interval: 100 },
      )
      .toBe(1);
  });
});
