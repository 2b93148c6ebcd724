import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { startCatalogServer, type CatalogServer, type Fault, type PageRequest } from "./helpers/catalog-server.js";
import { listingsOf, nextCadence, pollOnce } from "./helpers/ingest.js";
import { manyItems, v2Item } from "./helpers/items.js";

let ctx: TestContext;
const servers: CatalogServer[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await ctx?.close();
});

/** A source with 10 listings, polled once completely, then shrunk to 6 for the next poll. */
async function shrunkSource(host: string): Promise<CatalogServer> {
  const server = await startCatalogServer(manyItems(10, host));
  servers.push(server);
  server.maxLimit = 3;
  expect(await pollOnce(ctx, server.url)).toMatchObject({ complete: true, added: 10 });
  server.items = server.items.slice(0, 6);
  nextCadence(ctx);
  return server;
}

const activeCount = async (server: CatalogServer) => (await listingsOf(ctx, server.url)).filter((r) => r.is_active).length;

describe("an incomplete poll deactivates nothing", () => {
  const cases: Array<[string, (server: CatalogServer) => (req: PageRequest) => Fault | undefined, RegExp]> = [
    ["the source dies mid-way", () => (r) => (r.offset >= 3 ? "destroy" : undefined), /request failed/],
    ["a page is garbage", () => (r) => (r.offset === 3 ? { raw: "<html>oops</html>" } : undefined), /not JSON/],
    ["a page has no pagination", () => (r) => (r.offset === 3 ? { status: 200, body: { items: [] } } : undefined), /not a discovery page \(pagination/],
    ["a page answers 503", () => (r) => (r.offset === 3 ? { status: 503 } : undefined), /HTTP 503/],
    ["the offset loops back", (s) => (r) => (r.offset === 3 ? { status: 200, body: page(s, 0, 3, 3) } : undefined), /repeats an earlier page/],
    ["the offset is ignored", (s) => (r) => (r.offset === 3 ? { status: 200, body: page(s, 0, 0, 3) } : undefined), /asked for offset 3, the page says 0/],
    [
      "the total is truncated (an empty page before it)",
      (s) => (r) => (r.offset === 3 ? { status: 200, body: { ...page(s, 3, 3, 0), pagination: { limit: 3, offset: 3, total: 6 } } } : undefined),
      /empty page before the total of 6/,
    ],
    [
      "the total moves during the poll",
      (s) => (r) => (r.offset === 3 ? { status: 200, body: { ...page(s, 3, 3, 3), pagination: { limit: 3, offset: 3, total: 9 } } } : undefined),
      /total changed from 6 to 9/,
    ],
  ];

  for (const [name, fault, error] of cases) {
    it(`when ${name}`, async () => {
      const server = await shrunkSource(`https://${name.replace(/\W+/g, "-")}.example.com`);
      server.fault = fault(server);
      const summary = await pollOnce(ctx, server.url);
      expect(summary).toMatchObject({ status: "partial", complete: false, removed: 0 });
      expect(summary.error).toMatch(error);
      expect(await activeCount(server)).toBe(10);
      const poll = await ctx.db.db.selectFrom("catalog_polls").selectAll().where("id", "=", summary.pollId).executeTakeFirstOrThrow();
      expect(poll).toMatchObject({ complete: false, listings_removed: 0 });
      expect(poll.error).toMatch(error);
    });
  }

  it("when the page cap is reached (a server that never ends)", async () => {
    const server = await shrunkSource("https://endless.example.com");
    server.fault = (r) => ({
      status: 200,
      body: { items: [v2Item({ url: `https://endless.example.com/p/${r.offset}` })], pagination: { limit: 1, offset: r.offset, total: 1e9 } },
    });
    const summary = await pollOnce(ctx, server.url, { maxPages: 5 });
    expect(summary).toMatchObject({ complete: false, pages: 5, removed: 0 });
    expect(summary.error).toMatch(/more than 5 pages/);
    expect(await activeCount(server)).toBe(10 + 5);
  });

  it("when the first page already fails (status error, not partial)", async () => {
    const server = await shrunkSource("https://first-page.example.com");
    server.fault = () => ({ status: 200, body: { nope: true } });
    const summary = await pollOnce(ctx, server.url);
    expect(summary).toMatchObject({ status: "error", complete: false, pages: 0, removed: 0 });
    expect(await activeCount(server)).toBe(10);
  });
});

function page(server: CatalogServer, offset: number, claimedOffset: number, n: number) {
  return { x402Version: 2, items: server.items.slice(offset, offset + n), pagination: { limit: 3, offset: claimedOffset, total: server.items.length } };
}

describe("a complete poll", () => {
  it("deactivates what it no longer lists, stamping deactivated_at and keeping last_seen_at", async () => {
    const server = await shrunkSource("https://shrink.example.com");
    const firstPollAt = new Date(ctx.clock.now().getTime() - ctx.config.catalogPollSeconds * 1000 - 1000);
    const summary = await pollOnce(ctx, server.url);
    expect(summary).toMatchObject({ complete: true, added: 0, removed: 4 });
    const rows = await listingsOf(ctx, server.url);
    const gone = rows.filter((r) => !r.is_active);
    expect(gone.map((r) => r.url).sort()).toEqual([6, 7, 8, 9].map((i) => `https://shrink.example.com/r/${i}`));
    for (const r of gone) {
      expect(r.deactivated_at).toEqual(ctx.clock.now());
      expect(r.last_seen_at).toEqual(firstPollAt);
    }
    for (const r of rows.filter((r) => r.is_active)) expect(r.last_seen_at).toEqual(ctx.clock.now());
    const poll = await ctx.db.db.selectFrom("catalog_polls").selectAll().where("id", "=", summary.pollId).executeTakeFirstOrThrow();
    expect(poll.listings_removed).toBe(4);
  });

  it("reactivates a listing that comes back, keeping its first_seen_at", async () => {
    const server = await shrunkSource("https://comeback.example.com");
    await pollOnce(ctx, server.url);
    const before = (await listingsOf(ctx, server.url)).find((r) => r.url.endsWith("/r/8"))!;
    expect(before.is_active).toBe(false);

    server.items = manyItems(10, "https://comeback.example.com").slice(0, 9);
    nextCadence(ctx);
    const summary = await pollOnce(ctx, server.url);
    expect(summary).toMatchObject({ complete: true, added: 3, reactivated: 3, removed: 0 });
    const after = (await listingsOf(ctx, server.url)).find((r) => r.url.endsWith("/r/8"))!;
    expect(after).toMatchObject({ id: before.id, is_active: true, deactivated_at: null });
    expect(after.first_seen_at).toEqual(before.first_seen_at);
    expect(after.last_seen_at).toEqual(ctx.clock.now());
  });

  it("leaves listings that another source saw last to that source", async () => {
    const a = await startCatalogServer([v2Item({ url: "https://shared.example.com/x" }), v2Item({ url: "https://shared.example.com/only-a" })]);
    const b = await startCatalogServer([v2Item({ url: "https://shared.example.com/x" })]);
    servers.push(a, b);
    await pollOnce(ctx, a.url);
    ctx.clock.advance(1000);
    await pollOnce(ctx, b.url);
    a.items = [];
    nextCadence(ctx);
    expect(await pollOnce(ctx, a.url)).toMatchObject({ complete: true, removed: 1 });
    const shared = async () => (await listingsOf(ctx)).find((r) => r.url === "https://shared.example.com/x")!;
    // What the listing says is the incumbent's (decision 0032) until the source still listing it sees it again.
    expect(await shared()).toMatchObject({ is_active: true, source_url: a.url });
    await pollOnce(ctx, b.url);
    expect(await shared()).toMatchObject({ is_active: true, source_url: b.url });
  });
});
