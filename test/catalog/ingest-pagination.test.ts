import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { startCatalogServer, type CatalogServer } from "./helpers/catalog-server.js";
import { listingsOf, MINUTE, pollOnce } from "./helpers/ingest.js";
import { manyItems, v1Item, v2Item } from "./helpers/items.js";

let ctx: TestContext;
const servers: CatalogServer[] = [];
const serve = async (items: unknown[]) => {
  const s = await startCatalogServer(items);
  servers.push(s);
  return s;
};

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await ctx?.close();
});

describe("a complete poll", () => {
  it("walks every page and upserts each listing with its group keys, price and usage", async () => {
    const items = [
      ...manyItems(23, "https://api.weather.example.com", {
        serviceName: "Weather Now",
        tags: ["Forecast"],
        payTo: "0xAAAA000000000000000000000000000000000001",
      }),
      v2Item({
        url: "https://maps.example.org/geo",
        serviceName: "Geo Maps",
        tags: ["maps"],
        payTo: "0xaaaa000000000000000000000000000000000001",
        method: "GET",
        quality: { l30DaysTotalCalls: 40, l30DaysUniquePayers: 3, lastCalledAt: "2026-11-19T08:00:00Z" },
      }),
      v1Item({ url: "http://127.0.0.1:9/legacy", payTo: "0xbbbb000000000000000000000000000000000002", amount: "1000000000" }),
    ];
    const server = await serve(items);
    server.maxLimit = 7; // the server pages smaller than asked: the offset follows what came
    const summary = await pollOnce(ctx, server.url);

    expect(summary).toMatchObject({ status: "ok", complete: true, pages: 4, itemsSeen: 25, itemsValid: 25, itemsMalformed: 0, added: 25, removed: 0 });
    expect(server.requests.map((r) => r.offset)).toEqual([0, 7, 14, 21]);

    const rows = await listingsOf(ctx, server.url);
    expect(rows).toHaveLength(25);
    const now = ctx.clock.now().getTime();
    for (const r of rows) {
      expect(r.is_active).toBe(true);
      expect(r.first_seen_at.getTime()).toBe(now);
      // The first probe comes within the first minute.
      expect(r.next_probe_at.getTime() - now).toBeGreaterThanOrEqual(0);
      expect(r.next_probe_at.getTime() - now).toBeLessThan(MINUTE);
    }
    const geo = rows.find((r) => r.url === "https://maps.example.org/geo")!;
    expect(geo).toMatchObject({
      method: "GET",
      service_id: "geo-maps",
      domain: "example.org",
      category: "geo",
      price_usdc: "0.01",
      price_atomic: "10000",
      currency: "USDC",
      network: "eip155:8453",
      l30d_calls: 40,
      l30d_unique_payers: 3,
      x402_version: 2,
      resource_type: "http",
      provider_id: "eip155:8453:0xaaaa000000000000000000000000000000000001",
    });
    expect(geo.last_called_at).toEqual(new Date("2026-11-19T08:00:00Z"));
    expect((geo.raw as Record<string, unknown>).serviceName).toBe("Geo Maps");
    const legacy = rows.find((r) => r.url === "http://127.0.0.1:9/legacy")!;
    expect(legacy).toMatchObject({ method: "GET", service_id: "127-0-0-1-9", domain: "127.0.0.1:9", price_usdc: "1000", x402_version: 1, category: null });

    // One payee with 23 "Weather Now" listings and one "Geo Maps": named by the most common.
    const provider = await ctx.db.db.selectFrom("providers").selectAll().where("provider_id", "=", geo.provider_id!).executeTakeFirstOrThrow();
    expect(provider).toMatchObject({ name: "Weather Now", network: "eip155:8453", pay_to: "0xaaaa000000000000000000000000000000000001" });
    const service = await ctx.db.db.selectFrom("services").selectAll().where("service_id", "=", "weather-now").executeTakeFirstOrThrow();
    expect(service).toMatchObject({ name: "Weather Now", origin: "https://api.weather.example.com" });

    const poll = await ctx.db.db.selectFrom("catalog_polls").selectAll().where("id", "=", summary.pollId).executeTakeFirstOrThrow();
    expect(poll).toMatchObject({
      source_url: server.url,
      complete: true,
      items_seen: 25,
      items_valid: 25,
      items_malformed: 0,
      listings_added: 25,
      listings_removed: 0,
      error: null,
    });
    expect(poll.finished_at).toEqual(ctx.clock.now());
    const source = await ctx.db.db.selectFrom("catalog_sources").selectAll().where("url", "=", server.url).executeTakeFirstOrThrow();
    expect(source).toMatchObject({ last_status: "ok", consecutive_failures: 0, lease_owner: null, last_error: null });
    expect(source.next_poll_at.getTime()).toBe(now + ctx.config.catalogPollSeconds * 1000);
  });

  it("upserts a listing listed twice (same url and method) once, and counts malformed items without failing", async () => {
    const dup = v2Item({ url: "https://dup.example.com/a", serviceName: "First" });
    const items = [
      dup,
      { resource: "https://bad.example.com/no-accepts", type: "http", x402Version: 2, accepts: [] },
      v2Item({ url: "https://dup.example.com/b" }),
      "not an object",
      { ...v2Item({ url: "https://dup.example.com/a#fragment", serviceName: "Second" }) },
      v2Item({ url: "https://dup.example.com/a", method: "GET" }),
      v2Item({ url: "https://bad.example.com/price", amount: "ten" }),
    ];
    const server = await serve(items);
    server.maxLimit = 2;
    const summary = await pollOnce(ctx, server.url);
    expect(summary).toMatchObject({ complete: true, itemsSeen: 7, itemsValid: 3, itemsMalformed: 3, added: 3 });
    const rows = await listingsOf(ctx, server.url);
    expect(rows.map((r) => `${r.method} ${r.url_normalized}`)).toEqual([
      "GET https://dup.example.com/a",
      "POST https://dup.example.com/a",
      "POST https://dup.example.com/b",
    ]);
    // The first sighting wins within a poll.
    expect(rows.find((r) => r.method === "POST" && r.url_normalized === "https://dup.example.com/a")!.service_id).toBe("first");
    const poll = await ctx.db.db.selectFrom("catalog_polls").selectAll().where("id", "=", summary.pollId).executeTakeFirstOrThrow();
    expect(poll).toMatchObject({ complete: true, items_seen: 7, items_valid: 3, items_malformed: 3 });
  });

  it("counts price, service and category changes of known listings as updates", async () => {
    const server = await serve([v2Item({ url: "https://chg.example.com/a", amount: "100" }), v2Item({ url: "https://chg.example.com/b" })]);
    await pollOnce(ctx, server.url);
    server.items = [v2Item({ url: "https://chg.example.com/a", amount: "200" }), v2Item({ url: "https://chg.example.com/b" })];
    ctx.clock.advance(ctx.config.catalogPollSeconds * 1000);
    const second = await pollOnce(ctx, server.url);
    expect(second).toMatchObject({ complete: true, added: 0, removed: 0, updated: 1 });
    const a = (await listingsOf(ctx, server.url)).find((r) => r.url.endsWith("/a"))!;
    expect(a.price_atomic).toBe("200");
    expect(a.first_seen_at.getTime()).toBeLessThan(a.last_seen_at.getTime());
  });

  it("never lets one item fail the rest: NUL characters, oversized URLs and rows the database refuses", async () => {
    // A payee row written under another id: listings naming our id for it break the foreign key.
    await ctx.db.db
      .insertInto("providers")
      .values({ provider_id: "legacy", network: "eip155:8453", pay_to: "0xdead000000000000000000000000000000000000", first_seen_at: ctx.clock.now() })
      .execute();
    const items = [
      ...manyItems(6, "https://robust.example.com"),
      v2Item({ url: "https://robust.example.com/nul", description: "bad\u0000text", serviceName: "Nul\u0000Name" }),
      { ...v2Item({ url: "https://robust.example.com/raw-nul" }), ["odd\u0000key"]: "v\u0000" },
      v2Item({ url: "https://robust.example.com/payto-nul", payTo: "0xabc\u0000" }),
      v2Item({ url: `https://robust.example.com/${"é".repeat(400)}` }),
      v2Item({ url: "https://robust.example.com/refused", payTo: "0xdead000000000000000000000000000000000000" }),
    ];
    const server = await serve(items);
    const summary = await pollOnce(ctx, server.url);
    expect(summary).toMatchObject({ complete: true, itemsSeen: 11, itemsValid: 8, itemsMalformed: 3, added: 8 });
    const rows = await listingsOf(ctx, server.url);
    expect(rows).toHaveLength(8);
    expect(rows.find((r) => r.url.endsWith("/nul"))).toMatchObject({ description: "badtext", service_id: "nulname" });
    expect(rows.find((r) => r.url.endsWith("/raw-nul"))!.raw).toMatchObject({ oddkey: "v" });
    expect(rows.some((r) => r.url.endsWith("/refused"))).toBe(false);
  });
});
