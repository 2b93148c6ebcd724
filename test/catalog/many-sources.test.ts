import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRemoteFacilitator } from "../../src/chain/facilitator.js";
import { startDemoFleet, type DemoFleet } from "../../src/demo/index.js";
import { demoSourceEntry } from "../../src/services/catalog/index.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { startFakeSupported } from "../helpers/fake-supported.js";
import { startCatalogServer, type CatalogServer } from "./helpers/catalog-server.js";
import { ingestOnce, nextCadence, pollOnce } from "./helpers/ingest.js";
import { v2Item } from "./helpers/items.js";
import { pino } from "pino";

/**
 * Many sources, one catalog (issue 27): sources have stable ids, every listing records which
 * sources list it, and a listing leaves when no source that still counts lists it.
 */
const HOUR = 3_600_000;
let ctx: TestContext;
const servers: CatalogServer[] = [];
const serve = async (urls: string[]) => {
  const s = await startCatalogServer(urls.map((url) => v2Item({ url, serviceName: "Many" })));
  servers.push(s);
  return s;
};
const active = async (prefix: string) =>
  (await ctx.db.db.selectFrom("listings").select(["id", "url"]).where("is_active", "=", true).where("url", "like", `${prefix}%`).orderBy("url").execute()).map(
    (r) => r.url,
  );
const idOf = async (url: string) => Number((await ctx.db.db.selectFrom("listings").select("id").where("url", "=", url).executeTakeFirstOrThrow()).id);

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await ctx?.close();
});

describe("many sources, one catalog", () => {
  it("a restarted demo (new ports, the same id) keeps exactly one copy of its catalog", async () => {
    const facilitator = await startFakeSupported([{ x402Version: 2, scheme: "exact", network: "eip155:84532" }]);
    const fleets: DemoFleet[] = [];
    let size = 0;
    try {
      for (let run = 0; run < 3; run++) {
        const fleet = await startDemoFleet({
          log: pino({ level: "silent" }),
          facilitator: createRemoteFacilitator(facilitator.url),
          network: "eip155:84532",
          payTo: "0x" + "d".repeat(40),
          asset: { address: "0x036CbD53842c5426634e7929541eC2318f3dCF7e", name: "USDC", version: "2" },
          clock: ctx.clock,
        });
        fleets.push(fleet);
        // A restart comes within the cadence: the moved address is due at once all the same.
        if (run > 0) ctx.clock.advance(60_000);
        const [summary] = await ingestOnce(ctx, [demoSourceEntry(fleet.catalogUrl)]);
        expect(summary).toMatchObject({ sourceId: "demo", source: fleet.catalogUrl, complete: true });
        const listed = await ctx.db.db.selectFrom("listings").select(["url"]).where("is_active", "=", true).execute();
        // The demo catalog's size (38 when issue 27 was filed); the same on every run.
        if (run === 0) size = listed.length;
        expect(size).toBeGreaterThanOrEqual(38);
        expect(listed).toHaveLength(size);
        // Every active listing is this run's: its host is one of this fleet's ports.
        const hosts = new Set(Object.values(fleet.hosts).map((o) => new URL(o).host));
        expect(listed.every((l) => hosts.has(new URL(l.url).host))).toBe(true);
        if (run > 0) expect(summary!.removed).toBe(size);
        await fleet.stop();
      }
      const sources = await ctx.db.db.selectFrom("catalog_sources").select(["id", "url"]).execute();
      expect(sources).toEqual([{ id: "demo", url: fleets[2]!.catalogUrl }]);
      // Two earlier copies, retired, each row kept once (reactivation would keep the id).
      expect(await ctx.db.db.selectFrom("listings").select("id").where("is_active", "=", false).execute()).toHaveLength(2 * size);
    } finally {
      await Promise.all(fleets.map((f) => f.stop().catch(() => undefined)));
      await facilitator.close();
    }
    // Leave the demo's listings out of the tests below.
    await ctx.db.db.updateTable("listings").set({ is_active: false, deactivated_at: ctx.clock.now() }).where("is_active", "=", true).execute();
  }, 120_000);

  it("keeps a listing two sources list while one still lists it, and reactivates it with its id", async () => {
    const both = "https://both.example/a";
    const onlyA = "https://both.example/only-a";
    const a = await serve([both, onlyA]);
    const b = await serve([both]);
    await ingestOnce(ctx, [a.url, b.url]);
    const id = await idOf(both);
    const rows = await ctx.db.db.selectFrom("listing_sources").selectAll().where("listing_id", "=", id).orderBy("source_id").execute();
    expect(rows.map((r) => [r.source_id, r.listed, r.pay_to])).toEqual(
      [a.url, b.url].sort().map((source) => [source, true, "0x1111111111111111111111111111111111111111"]),
    );

    // A drops both listings: only-a leaves, both stays (B lists it).
    a.items = [];
    nextCadence(ctx);
    const [pa] = await ingestOnce(ctx, [a.url, b.url]).then((s) => s.filter((x) => x.source === a.url));
    expect(pa!.removed).toBe(1);
    expect(await active("https://both.example/")).toEqual([both]);

    // B drops it too: it leaves; A lists it again: back, with its id.
    b.items = [];
    nextCadence(ctx);
    await ingestOnce(ctx, [a.url, b.url]);
    expect(await active("https://both.example/")).toEqual([]);
    a.items = [v2Item({ url: both })];
    nextCadence(ctx);
    await ingestOnce(ctx, [a.url, b.url]);
    expect(await active("https://both.example/")).toEqual([both]);
    expect(await idOf(both)).toBe(id);
  });

  it("a partial poll of the other source takes nothing away", async () => {
    const url = "https://partial.example/x";
    const a = await serve([url]);
    await pollOnce(ctx, a.url);
    a.fault = () => ({ status: 503 });
    nextCadence(ctx);
    expect((await pollOnce(ctx, a.url)).complete).toBe(false);
    expect(await active("https://partial.example/")).toEqual([url]);
    a.fault = undefined;
  });

  it("a source removed from the configuration leaves the catalog after the grace period, not before", async () => {
    const kept = await serve(["https://kept.example/k", "https://shared.example/s"]);
    const removed = await serve(["https://removed.example/r", "https://shared.example/s"]);
    nextCadence(ctx);
    await ingestOnce(ctx, [kept.url, removed.url]);
    expect(await active("https://removed.example/")).toEqual(["https://removed.example/r"]);
    // From now on only `kept` is configured; `removed` is never polled again.
    for (let h = 0; h < 23; h++) {
      ctx.clock.advance(HOUR);
      await ingestOnce(ctx, [kept.url]);
    }
    expect(await active("https://removed.example/")).toEqual(["https://removed.example/r"]);
    ctx.clock.advance(2 * HOUR);
    await ingestOnce(ctx, [kept.url]);
    expect(await active("https://removed.example/")).toEqual([]);
    // What the configured source lists stays, shared or not.
    expect(await active("https://kept.example/")).toEqual(["https://kept.example/k"]);
    expect(await active("https://shared.example/")).toEqual(["https://shared.example/s"]);
    const row = await ctx.db.db
      .selectFrom("listing_sources")
      .select("listed")
      .where("source_id", "=", removed.url)
      .where("listing_id", "=", await idOf("https://removed.example/r"))
      .executeTakeFirstOrThrow();
    expect(row.listed).toBe(false);
  });

  it("a configured source that never completes a poll stops counting a grace period after it was added", async () => {
    const broken = await serve(["https://broken.example/0", "https://broken.example/1"]);
    broken.maxLimit = 1;
    broken.fault = (req) => (req.offset > 0 ? { status: 503 } : undefined);
    expect((await ingestOnce(ctx, [broken.url]))[0]).toMatchObject({ status: "partial", removed: 0 });
    expect(await active("https://broken.example/")).toEqual(["https://broken.example/0"]);
    ctx.clock.advance(23 * HOUR);
    await ingestOnce(ctx, [broken.url]);
    expect(await active("https://broken.example/")).toEqual(["https://broken.example/0"]);
    ctx.clock.advance(2 * HOUR);
    await ingestOnce(ctx, [broken.url]);
    expect(await active("https://broken.example/")).toEqual([]);
    const id = await idOf("https://broken.example/0");

    // Past its grace, a partial poll brings nothing back (no flapping in and out every cycle)...
    ctx.clock.advance(2 * HOUR);
    const [partial] = await ingestOnce(ctx, [broken.url]);
    expect(partial).toMatchObject({ status: "partial", added: 0 });
    expect(await active("https://broken.example/")).toEqual([]);
    // ...a complete one does, ids kept.
    broken.fault = undefined;
    ctx.clock.advance(2 * HOUR);
    const [complete] = await ingestOnce(ctx, [broken.url]);
    expect(complete).toMatchObject({ complete: true, added: 2 });
    expect(await active("https://broken.example/")).toEqual(["https://broken.example/0", "https://broken.example/1"]);
    expect(await idOf("https://broken.example/0")).toBe(id);
  });
});
