import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppContext } from "../../src/context.js";
import { openDatabase, type DbHandle } from "../../src/db/client.js";
import { createServices } from "../../src/services/index.js";
import { startIngester } from "../helpers/start-ingester.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import type { TestDb } from "../helpers/db.js";
import { startCatalogServer, type CatalogServer } from "./helpers/catalog-server.js";
import { nextCadence, TEST_OPTIONS } from "./helpers/ingest.js";
import { manyItems } from "./helpers/items.js";

let ctx: TestContext;
let second: DbHandle | undefined;
let server: CatalogServer;
const logLines: Record<string, unknown>[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
  ctx.log = pino(
    { level: "info" },
    new Writable({
      write(chunk: Buffer, _enc, done) {
        logLines.push(JSON.parse(chunk.toString()));
        done();
      },
    }),
  );
  // On PostgreSQL the second ingester gets its own pool, as a second process would.
  const url = (ctx.db as TestDb).url;
  if (url) second = await openDatabase({ databaseUrl: url, poolSize: 2 });
  server = await startCatalogServer(manyItems(40, "https://fleet.example.com"));
  server.maxLimit = 10;
  server.delayMs = 20;
});
afterAll(async () => {
  await server?.close();
  await second?.close();
  await ctx?.close();
});

describe("the ingester worker", () => {
  it("polls each source once per cadence however many ingesters run", async () => {
    const db = second ?? ctx.db;
    const other: AppContext = { ...ctx, db, services: createServices({ db, clock: ctx.clock, log: ctx.log, metrics: ctx.metrics, config: ctx.config }) };
    const a = startIngester(ctx, [server.url], TEST_OPTIONS);
    const b = startIngester(other, [server.url], TEST_OPTIONS);
    try {
      const [ra, rb] = await Promise.all([a.runNow(), b.runNow()]);
      const summaries = [...ra, ...rb];
      expect(summaries).toHaveLength(1);
      expect(summaries[0]).toMatchObject({ source: server.url, complete: true, pages: 4, added: 40 });
      expect(server.requests.map((r) => r.offset)).toEqual([0, 10, 20, 30]);
      const polls = await ctx.db.db.selectFrom("catalog_polls").selectAll().execute();
      expect(polls).toHaveLength(1);

      // Same cadence: nothing is due, nobody polls.
      expect([...(await a.runNow()), ...(await b.runNow())]).toEqual([]);
      nextCadence(ctx);
      const again = [...(await Promise.all([a.runNow(), b.runNow()]))].flat();
      expect(again).toHaveLength(1);
      expect(again[0]).toMatchObject({ complete: true, added: 0, removed: 0 });
      expect(server.requests).toHaveLength(8);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      await other.services.close();
    }
  });

  it("logs one summary line per cycle and exports its metrics", async () => {
    const cycles = logLines.filter((l) => l.msg === "ingest cycle");
    // Two ingesters, three cycles each.
    expect(cycles).toHaveLength(6);
    const busy = cycles.find((l) => l.added === 40)!;
    expect(busy).toMatchObject({ worker: "ingester", sources: 1, polled: 1, complete: 1, failed: 0, listings_seen: 40, removed: 0, malformed: 0 });
    expect(typeof busy.duration_ms).toBe("number");

    const text = await ctx.metrics.metrics();
    expect(text).toMatch(/^lookout_ingest_polls_total\{status="ok"\} 2$/m);
    expect(text).toMatch(/^lookout_ingest_listings_total\{change="added"\} 40$/m);
    expect(text).toMatch(/^lookout_ingest_items_malformed_total 0$/m);
    expect(text).toMatch(/^lookout_ingest_cycle_duration_seconds_count 6$/m);
  });

  it("stops cleanly while a poll hangs, leaving the source due for the next ingester", async () => {
    const hang = await startCatalogServer(manyItems(3, "https://stop.example.com"));
    hang.fault = () => "hang";
    try {
      const w = startIngester(ctx, [hang.url], { ...TEST_OPTIONS, requestTimeoutMs: 20_000 });
      await expect.poll(() => hang.requests.length, { timeout: 5_000 }).toBe(1);
      await w.stop();
      const row = await ctx.db.db.selectFrom("catalog_sources").selectAll().where("url", "=", hang.url).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ consecutive_failures: 0, last_error: "interrupted by shutdown", lease_owner: null });
      expect(row.next_poll_at).toEqual(ctx.clock.now());
    } finally {
      await hang.close();
    }
  });
});
