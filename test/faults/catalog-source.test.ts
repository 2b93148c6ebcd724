import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCatalogServer, type CatalogServer, type Fault, type PageRequest } from "../catalog/helpers/catalog-server.js";
import { listingsOf, nextCadence, pollOnce } from "../catalog/helpers/ingest.js";
import { manyItems } from "../catalog/helpers/items.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { oddValue } from "../fuzz/arbitraries.js";

/**
 * Issue 9, faults: a catalog source that returns garbage or truncates deactivates nothing.
 * Each run takes a source whose 10 listings are all active, shrinks it to 6 (so a poll that
 * wrongly counted as complete would deactivate 4) and breaks one page of the next poll in a
 * generated way: garbage bytes or JSON, a body cut short at the HTTP or the JSON level, a broken
 * envelope, an error status, a reset, or items that are all garbage. Fixed seed; FUZZ_SEED explores.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 4_020_019);
const RUNS = 60;
const PAGE = 3;

let ctx: TestContext;
let server: CatalogServer;
const full = manyItems(10, "https://garbage.example.com");

beforeAll(async () => {
  ctx = await createTestContext();
  server = await startCatalogServer(full);
  server.maxLimit = PAGE;
});
afterAll(async () => {
  await server?.close();
  await ctx?.close();
});

/** The exact page the server would have sent for a request, as JSON text. */
const pageText = (r: PageRequest) =>
  JSON.stringify({
    x402Version: 2,
    items: server.items.slice(r.offset, r.offset + PAGE),
    pagination: { limit: PAGE, offset: r.offset, total: server.items.length },
  });

type Breakage = (r: PageRequest) => Fault;
const notAnInteger = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.string({ maxLength: 5 }),
  fc.constantFrom(-1, 1.5, 1e21, Number.MAX_SAFE_INTEGER + 2),
  fc.array(fc.nat(), { maxLength: 2 }),
);

const breakage: fc.Arbitrary<[string, Breakage]> = fc.oneof(
  fc.uint8Array({ minLength: 1, maxLength: 300 }).map((b): [string, Breakage] => ["random bytes", () => ({ raw: b })]),
  fc.jsonValue({ maxDepth: 3 }).map((v): [string, Breakage] => ["a JSON value that is not a page", () => ({ raw: JSON.stringify(v) ?? "null" })]),
  fc
    .constantFrom("text/html", "text/plain")
    .map((t): [string, Breakage] => ["an HTML error page", () => ({ raw: "<html><body>502 Bad Gateway</body></html>", contentType: t })]),
  fc
    .double({ min: 0, max: 0.999, noNaN: true })
    .map((f): [string, Breakage] => ["JSON cut short", (r) => ({ raw: pageText(r).slice(0, Math.floor(f * pageText(r).length)) })]),
  fc
    .double({ min: 0, max: 0.999, noNaN: true })
    .map((f): [string, Breakage] => [
      "a body cut short on the wire",
      (r) => ({ truncate: pageText(r).slice(0, Math.floor(f * pageText(r).length)), declaredBytes: Buffer.byteLength(pageText(r)) }),
    ]),
  fc.tuple(fc.constantFrom("limit", "offset", "total"), notAnInteger).map(([k, v]): [string, Breakage] => [
    `pagination.${k} not a count`,
    (r) => {
      const page = JSON.parse(pageText(r));
      page.pagination[k] = v;
      return { status: 200, body: page };
    },
  ]),
  oddValue
    .filter((v) => !Array.isArray(v))
    .map((v): [string, Breakage] => ["items not a list", (r) => ({ status: 200, body: { ...JSON.parse(pageText(r)), items: v } })]),
  fc.constantFrom(0, 2).map((n): [string, Breakage] => [
    "a short page before the total",
    (r) => ({
      status: 200,
      body: {
        ...JSON.parse(pageText(r)),
        items: server.items.slice(r.offset, r.offset + n),
        pagination: { limit: PAGE, offset: r.offset, total: server.items.length + 3 },
      },
    }),
  ]),
  fc.constantFrom(404, 429, 500, 502, 503).map((s): [string, Breakage] => [`HTTP ${s}`, () => ({ status: s, body: { error: "down" } })]),
  fc.constant<[string, Breakage]>(["a connection reset", () => "destroy"]),
  fc
    .array(oddValue, { minLength: PAGE, maxLength: PAGE })
    .map((items): [string, Breakage] => ["a page of garbage items", (r) => ({ status: 200, body: { ...JSON.parse(pageText(r)), items } })]),
);

const active = async () =>
  (await listingsOf(ctx, server.url))
    .filter((l) => l.is_active)
    .map((l) => l.url)
    .sort();

describe("a catalog source that returns garbage or truncates", () => {
  it(`deactivates nothing, whatever page breaks and however (${RUNS} generated faults)`, async () => {
    const allUrls = full.map((i) => (i as { resource: string }).resource).sort();
    await fc.assert(
      fc.asyncProperty(breakage, fc.nat({ max: 1 }), async ([, broken], page) => {
        // A clean, complete poll of all 10 listings first.
        server.fault = undefined;
        server.items = full;
        nextCadence(ctx);
        await pollOnce(ctx, server.url);
        expect(await active()).toEqual(allUrls);

        // The source now lists 6; the next poll has one page broken.
        server.items = full.slice(0, 6);
        server.fault = (r) => (r.offset === page * PAGE ? broken(r) : undefined);
        nextCadence(ctx);
        const summary = await pollOnce(ctx, server.url);
        expect(summary.removed).toBe(0);
        expect(await active()).toEqual(allUrls);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  }, 120_000);

  it("an item that turns malformed but still names its resource keeps its listing; the rest still delists", async () => {
    server.fault = undefined;
    server.items = full;
    nextCadence(ctx);
    await pollOnce(ctx, server.url);
    // Item 0 loses its accepts (malformed, resource readable); items 6..9 are gone for real.
    server.items = [{ ...(full[0] as object), accepts: [] }, ...full.slice(1, 6)];
    nextCadence(ctx);
    expect(await pollOnce(ctx, server.url)).toMatchObject({ complete: true, itemsMalformed: 1, removed: 4 });
    expect(await active()).toEqual(
      full
        .slice(0, 6)
        .map((i) => (i as { resource: string }).resource)
        .sort(),
    );
  });

  it("a clean poll of the shrunk source still deactivates what it no longer lists", async () => {
    server.fault = undefined;
    server.items = full;
    nextCadence(ctx);
    await pollOnce(ctx, server.url);
    server.items = full.slice(0, 6);
    nextCadence(ctx);
    expect(await pollOnce(ctx, server.url)).toMatchObject({ complete: true, removed: 4 });
    expect(await active()).toHaveLength(6);
  });
});
