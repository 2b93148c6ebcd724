import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestOptions, runIngestCycle } from "../../src/services/catalog/index.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { startCatalogServer, type CatalogServer } from "./helpers/catalog-server.js";
import { nextCadence, TEST_OPTIONS } from "./helpers/ingest.js";
import { manyItems } from "./helpers/items.js";

/**
 * Issue 35 item 5 (decision 0038): one malformed item does not hold back the removals of every
 * other item. A malformed item that names its resource keeps that listing for the poll; one
 * that names none keeps nothing; only a page at least half made of such items holds the poll.
 */
let ctx: TestContext;
let server: CatalogServer;
const full = manyItems(10, "https://malformed.example.com");
const urlOf = (i: unknown) => (i as { resource: string }).resource;
const warnings: string[] = [];
const log = pino(
  { level: "warn" },
  new Writable({
    write(chunk, _enc, done) {
      warnings.push(JSON.parse(String(chunk)).msg);
      done();
    },
  }),
);
const poll = async (items: unknown[]) => {
  server.items = items;
  nextCadence(ctx);
  const [summary] = await runIngestCycle({ db: ctx.db.db, clock: ctx.clock, log }, [server.url], ingestOptions(ctx.config.catalogPollSeconds, TEST_OPTIONS));
  return summary!;
};
const active = async () => (await ctx.db.db.selectFrom("listings").select("url").where("is_active", "=", true).orderBy("url").execute()).map((r) => r.url);
const activeOf = (items: unknown[]) => items.map(urlOf).sort();

beforeAll(async () => {
  ctx = await createTestContext();
  server = await startCatalogServer(full);
  server.maxLimit = 5;
});
afterAll(async () => {
  await server?.close();
  await ctx?.close();
});

describe("malformed items and removals", () => {
  it("an item that names no resource holds nothing back: the rest delists, a malformed item that names its resource keeps its listing", async () => {
    expect(await poll(full)).toMatchObject({ complete: true, added: 10 });
    warnings.length = 0;
    // Page 1: item 0 malformed (no accepts) but named, one junk item, items 1..3; page 2: items 4, 5. Items 6..9 are gone.
    const broken = { ...(full[0] as object), accepts: [] };
    const summary = await poll([broken, { resource: 42, accepts: "x" }, ...full.slice(1, 6)]);
    expect(summary).toMatchObject({ complete: true, itemsMalformed: 2, removed: 4 });
    expect(await active()).toEqual(activeOf(full.slice(0, 6)));
    expect(warnings).toEqual(["catalog items skipped as malformed"]);

    // The next poll without item 0 at all retires it: being malformed once is no lasting shield.
    expect(await poll(full.slice(1, 6))).toMatchObject({ complete: true, removed: 1 });
    expect(await active()).toEqual(activeOf(full.slice(1, 6)));
  });

  it("a page at least half made of items that name no resource holds every removal (a broken page or a new format) and says so", async () => {
    expect(await poll(full)).toMatchObject({ added: 5 });
    warnings.length = 0;
    const junk = ["junk", null, { accepts: [] }];
    // Page 1: three junk items and two listings; page 2: three listings. Items 5..9 are missing.
    const summary = await poll([...junk, ...full.slice(0, 5)]);
    expect(summary).toMatchObject({ complete: true, itemsMalformed: 3, removed: 0 });
    expect(await active()).toEqual(activeOf(full));
    expect(warnings).toContain("deactivation held: a page of malformed items names no readable resource");
  });

  it("a catalog whose every item turned unreadable (a format change) loses nothing", async () => {
    const summary = await poll(full.map((i) => ({ item: i })));
    expect(summary).toMatchObject({ complete: true, itemsValid: 0, itemsMalformed: 10, removed: 0 });
    expect(await active()).toEqual(activeOf(full));
  });
});
