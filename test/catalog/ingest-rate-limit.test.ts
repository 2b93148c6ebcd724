import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rateLimitWaitMs, retryAfterMs, RATE_LIMIT_MAX_WAIT_MS, RATE_LIMIT_MIN_WAIT_MS } from "../../src/services/catalog/backoff.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { startCatalogServer, type CatalogServer } from "./helpers/catalog-server.js";
import { listingsOf, nextCadence, pollOnce } from "./helpers/ingest.js";
import { manyItems } from "./helpers/items.js";

let ctx: TestContext;
const servers: CatalogServer[] = [];
const serve = async (host: string, n: number) => {
  const server = await startCatalogServer(manyItems(n, host));
  servers.push(server);
  server.maxLimit = 3;
  return server;
};

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await ctx?.close();
});

describe("Retry-After", () => {
  it("reads seconds and HTTP dates, and keeps the wait within bounds", () => {
    const now = Date.parse("2026-11-26T02:00:00Z");
    expect(retryAfterMs("3", now)).toBe(3000);
    expect(retryAfterMs("Thu, 26 Nov 2026 02:00:07 GMT", now)).toBe(7000);
    expect(retryAfterMs("Thu, 26 Nov 2026 01:59:00 GMT", now)).toBe(0);
    for (const junk of [undefined, "", "soon", "-5", "1.5"]) expect(retryAfterMs(junk, now)).toBeNull();
    expect(rateLimitWaitMs("0", now)).toBe(RATE_LIMIT_MIN_WAIT_MS);
    expect(rateLimitWaitMs("86400", now)).toBe(RATE_LIMIT_MAX_WAIT_MS);
    expect(rateLimitWaitMs(["2", "9"], now)).toBe(2000);
  });
});

describe("a page answered 429", () => {
  it("is asked again after Retry-After (seconds) and the poll completes", async () => {
    const server = await serve("https://ratelimited-seconds.example.com", 9);
    let refused = 0;
    server.fault = (r) => (r.offset === 3 && refused++ === 0 ? { status: 429, headers: { "retry-after": "1" }, body: { error: "rate limited" } } : undefined);
    const started = performance.now();
    const summary = await pollOnce(ctx, server.url);
    expect(summary).toMatchObject({ status: "ok", complete: true, pages: 3, added: 9 });
    expect(server.requests.map((r) => r.offset)).toEqual([0, 3, 3, 6]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
  });

  it("honours an HTTP-date Retry-After", async () => {
    const server = await serve("https://ratelimited-date.example.com", 6);
    let refused = 0;
    // HTTP dates have whole seconds: two seconds ahead is at least one second of waiting.
    server.fault = (r) =>
      r.offset === 0 && refused++ === 0 ? { status: 429, headers: { "retry-after": new Date(Date.now() + 2000).toUTCString() } } : undefined;
    const started = performance.now();
    expect(await pollOnce(ctx, server.url)).toMatchObject({ complete: true, added: 6 });
    expect(server.requests.map((r) => r.offset)).toEqual([0, 0, 3]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
  });

  it("ends the poll partial when the asked wait runs past the budget, deactivating nothing", async () => {
    const server = await serve("https://ratelimited-long.example.com", 9);
    expect(await pollOnce(ctx, server.url)).toMatchObject({ complete: true, added: 9 });
    nextCadence(ctx);
    server.items = server.items.slice(0, 6);
    server.fault = (r) => (r.offset === 3 ? { status: 429, headers: { "retry-after": "30" } } : undefined);
    const summary = await pollOnce(ctx, server.url, { pollBudgetMs: 3_000 });
    expect(summary).toMatchObject({ status: "partial", complete: false, removed: 0 });
    expect(summary.error).toMatch(/HTTP 429, Retry-After of 30000 ms runs past the poll budget/);
    expect(server.requests.filter((r) => r.offset === 3)).toHaveLength(2);
    const rows = await listingsOf(ctx, server.url);
    expect(rows.filter((r) => r.is_active)).toHaveLength(9);
  });

  it("gives up on a page refused again and again", async () => {
    const server = await serve("https://ratelimited-forever.example.com", 6);
    server.fault = (r) => (r.offset === 3 ? { status: 429, headers: { "retry-after": "0" } } : undefined);
    const summary = await pollOnce(ctx, server.url, { pollBudgetMs: 20_000 });
    expect(summary).toMatchObject({ status: "partial", complete: false, removed: 0 });
    expect(summary.error).toMatch(/HTTP 429 5 times in a row/);
    expect(server.requests.filter((r) => r.offset === 3)).toHaveLength(5);
  }, 30_000);
});
