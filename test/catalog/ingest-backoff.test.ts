import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BACKOFF_BASE_MS } from "../../src/services/catalog/constants.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { startCatalogServer, type CatalogServer } from "./helpers/catalog-server.js";
import { ingestOnce, pollOnce } from "./helpers/ingest.js";
import { manyItems } from "./helpers/items.js";

let ctx: TestContext;
const servers: CatalogServer[] = [];
const serve = async (items: unknown[] = []) => {
  const s = await startCatalogServer(items);
  servers.push(s);
  return s;
};
const sourceRow = (url: string) => ctx.db.db.selectFrom("catalog_sources").selectAll().where("url", "=", url).executeTakeFirstOrThrow();

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await ctx?.close();
});

describe("a failing source", () => {
  it("answering 5xx backs off exponentially, is not polled before next_poll_at, and recovers", async () => {
    const server = await serve(manyItems(3, "https://flaky.example.com"));
    server.fault = () => ({ status: 503 });
    const delays: number[] = [];
    for (let failure = 1; failure <= 4; failure++) {
      const summary = await pollOnce(ctx, server.url);
      expect(summary).toMatchObject({ status: "error", complete: false, error: "page 1 (offset 0): HTTP 503" });
      const row = await sourceRow(server.url);
      expect(row).toMatchObject({ consecutive_failures: failure, last_status: "error", last_error: summary.error, lease_owner: null });
      delays.push(row.next_poll_at.getTime() - ctx.clock.now().getTime());

      // Not due yet: nobody polls it.
      ctx.clock.advance(delays.at(-1)! - 1);
      const requests = server.requests.length;
      expect(await ingestOnce(ctx, [server.url])).toEqual([]);
      expect(server.requests.length).toBe(requests);
      ctx.clock.advance(1);
    }
    // Jitter is fixed at the midpoint here: exactly base, 2x, 4x, 8x.
    expect(delays).toEqual([1, 2, 4, 8].map((k) => k * BACKOFF_BASE_MS));

    server.fault = undefined;
    expect(await pollOnce(ctx, server.url)).toMatchObject({ status: "ok", added: 3 });
    const row = await sourceRow(server.url);
    expect(row).toMatchObject({ consecutive_failures: 0, last_status: "ok", last_error: null });
    expect(row.last_success_at).toEqual(ctx.clock.now());
  });

  it("that hangs times out per request and backs off", async () => {
    const server = await serve(manyItems(3, "https://hang.example.com"));
    server.fault = () => "hang";
    const started = performance.now();
    const summary = await pollOnce(ctx, server.url, { requestTimeoutMs: 300 });
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(summary).toMatchObject({ status: "error", complete: false });
    expect(summary.error).toMatch(/no complete answer within 300 ms/);
    const first = await sourceRow(server.url);
    expect(first.consecutive_failures).toBe(1);

    ctx.clock.set(first.next_poll_at);
    await pollOnce(ctx, server.url, { requestTimeoutMs: 300 });
    const second = await sourceRow(server.url);
    expect(second.consecutive_failures).toBe(2);
    expect(second.next_poll_at.getTime() - ctx.clock.now().getTime()).toBeGreaterThan(first.next_poll_at.getTime() - first.last_poll_finished_at!.getTime());
  });

  it("that hangs mid-way ends partial within the poll budget", async () => {
    const server = await serve(manyItems(9, "https://slow.example.com"));
    server.maxLimit = 3;
    server.fault = (r) => (r.offset === 6 ? "hang" : undefined);
    const summary = await pollOnce(ctx, server.url, { requestTimeoutMs: 5_000, pollBudgetMs: 400 });
    expect(summary).toMatchObject({ status: "partial", complete: false, pages: 2, itemsValid: 6 });
    expect(summary.error).toMatch(/no complete answer within \d+ ms|poll budget/);
  });

  it("refuses a page larger than the size cap", async () => {
    const server = await serve(manyItems(50, "https://big.example.com"));
    const summary = await pollOnce(ctx, server.url, { maxPageBytes: 2_000 });
    expect(summary).toMatchObject({ status: "error", complete: false });
    expect(summary.error).toMatch(/larger than 2000/);
  });

  it("answering a redirect is an error that names the target", async () => {
    const server = await serve();
    server.fault = () => ({ status: 301, headers: { location: "https://moved.example.com/discovery" } });
    const summary = await pollOnce(ctx, server.url);
    expect(summary.error).toBe("page 1 (offset 0): HTTP 301 (redirect to https://moved.example.com/discovery not followed)");
  });
});
