import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normalizeUrl } from "../../src/lib/url-normalize.js";
import { ingestOptions, runIngestCycle } from "../../src/services/catalog/index.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { startCatalogServer, type CatalogServer } from "./helpers/catalog-server.js";
import { nextCadence, TEST_OPTIONS } from "./helpers/ingest.js";
import { v2Item } from "./helpers/items.js";

/**
 * Issue 35 item 5 (decision 0038): adding, removing or changing the `id=` of a CATALOG_URLS
 * entry whose URL stays keeps the source: its row is renamed in place with its listings, polls
 * and catalog quotes, so what the catalog dropped leaves at once, not after the grace period.
 */
let ctx: TestContext;
let server: CatalogServer;
const lines: Array<{ msg: string; source?: string; was?: string }> = [];
const log = pino(
  { level: "info" },
  new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  }),
);
const URLS = ["https://rename.example/a", "https://rename.example/b", "https://rename.example/c"];
const cycle = (entries: string[]) =>
  runIngestCycle({ db: ctx.db.db, clock: ctx.clock, log }, entries, ingestOptions(ctx.config.catalogPollSeconds, TEST_OPTIONS));
const active = async () => (await ctx.db.db.selectFrom("listings").select("url").where("is_active", "=", true).orderBy("url").execute()).map((r) => r.url);
const sourceIds = async () => (await ctx.db.db.selectFrom("catalog_sources").select("id").orderBy("id").execute()).map((r) => r.id);
const renamed = () => lines.filter((l) => l.msg.startsWith("catalog source renamed"));

beforeAll(async () => {
  ctx = await createTestContext();
  server = await startCatalogServer(URLS.map((url) => v2Item({ url, serviceName: "Rename" })));
});
afterAll(async () => {
  await server?.close();
  await ctx?.close();
});

describe("a catalog source renamed in CATALOG_URLS", () => {
  it("adding id= keeps the source: its listings, polls and quotes move to the new id, and a dropped listing leaves at once", async () => {
    const [first] = await cycle([server.url]);
    expect(first).toMatchObject({ sourceId: normalizeUrl(server.url), complete: true, added: 3 });

    server.items = server.items.slice(0, 2);
    nextCadence(ctx);
    const [second, ...more] = await cycle([`mine=${server.url}`]);
    expect(more).toEqual([]);
    expect(second).toMatchObject({ sourceId: "mine", complete: true, removed: 1, added: 0 });
    expect(await active()).toEqual(URLS.slice(0, 2));
    expect(await sourceIds()).toEqual(["mine"]);
    const polls = await ctx.db.db.selectFrom("catalog_polls").select("source_id").execute();
    expect(polls.map((p) => p.source_id)).toEqual(["mine", "mine"]);
    const links = await ctx.db.db.selectFrom("listing_sources").select(["source_id", "listed"]).orderBy("listing_id").execute();
    expect(links).toEqual([
      { source_id: "mine", listed: true },
      { source_id: "mine", listed: true },
      { source_id: "mine", listed: false },
    ]);
    const profiles = await ctx.db.db.selectFrom("listing_quotes").select("profile").distinct().where("source", "=", "catalog").execute();
    expect(profiles).toEqual([{ profile: "mine" }]);
    expect(renamed()).toEqual([expect.objectContaining({ source: "mine", was: normalizeUrl(server.url), level: 30 })]);
  });

  it("logs the rename once: the next cycles find the source under its new id", async () => {
    nextCadence(ctx);
    await cycle([`mine=${server.url}`]);
    expect(renamed()).toHaveLength(1);
  });

  it("removing id= (or changing it) renames it back; the URL's own spelling does not matter", async () => {
    server.items = URLS.map((url) => v2Item({ url, serviceName: "Rename" }));
    nextCadence(ctx);
    const shouted = server.url.replace("http://", "HTTP://");
    const [summary] = await cycle([shouted]);
    expect(summary).toMatchObject({ sourceId: normalizeUrl(server.url), complete: true, added: 1 });
    expect(await sourceIds()).toEqual([normalizeUrl(server.url)]);
    expect(await active()).toEqual(URLS);
    expect(renamed()).toHaveLength(2);
  });

  it("an entry named like one already configured for the same URL is a second source, not a rename", async () => {
    nextCadence(ctx);
    const summaries = await cycle([server.url, `twin=${server.url}`]);
    expect(summaries.map((s) => s.sourceId).sort()).toEqual([normalizeUrl(server.url), "twin"]);
    expect(await sourceIds()).toEqual([normalizeUrl(server.url), "twin"]);
    expect(renamed()).toHaveLength(2);
  });
});
