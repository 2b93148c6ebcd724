import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFreshness } from "../../src/db/read-models/operations-state.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { startServer, type TestServer } from "../probes/helpers.js";
import { startCatalogServer, type CatalogServer } from "./helpers/catalog-server.js";
import { ingestOnce, nextCadence } from "./helpers/ingest.js";
import { BASE_SEPOLIA_USDC, v2Item } from "./helpers/items.js";

/**
 * Origin manifests (issue 27): each origin a configured source names is polled for its
 * /.well-known/x402 and OpenAPI x-payment-info documents as a source of kind manifest, at the
 * manifest cadence, through the SSRF guard, with the same retirement as any source.
 */
const HOUR = 3_600_000;
const PAYEE = "0x" + "e".repeat(40);
const terms = { scheme: "exact", network: "eip155:84532", amount: "3000", asset: BASE_SEPOLIA_USDC, payTo: PAYEE, maxTimeoutSeconds: 60 };
let ctx: TestContext;
let origin: TestServer;
let catalog: CatalogServer;
const requests: string[] = [];
let wellKnown: unknown;
let openapi: unknown;
let paidBroken = false;

beforeAll(async () => {
  ctx = await createTestContext({ ALLOW_PRIVATE_TARGETS: "true" });
  origin = await startServer((req, res) => {
    req.resume();
    requests.push(req.url ?? "");
    // Named without terms in the manifest: one answers a 402 (its terms in the v2 header), one is free.
    if (req.url === "/paid" && paidBroken) return req.socket.destroy();
    if (req.url === "/paid") {
      const challenge = { x402Version: 2, resource: { url: `${origin.url}/paid` }, accepts: [{ ...terms, amount: "7000" }] };
      return res.writeHead(402, { "payment-required": Buffer.from(JSON.stringify(challenge)).toString("base64") }).end("{}");
    }
    if (req.url === "/free") return res.writeHead(200, { "content-type": "application/json" }).end("{}");
    const doc = req.url === "/.well-known/x402" ? wellKnown : req.url === "/openapi.json" ? openapi : undefined;
    if (doc === undefined) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(doc));
  });
  wellKnown = {
    resources: [
      { resource: `${origin.url}/weather`, method: "GET", accepts: [terms] },
      "GET /paid",
      "/free",
      // Another origin's endpoint: a manifest speaks for its own origin only.
      { resource: "https://elsewhere.example/x", method: "GET", accepts: [terms] },
    ],
  };
  openapi = {
    openapi: "3.1.0",
    paths: { "/search": { post: { summary: "Search", "x-payment-info": { protocols: [{ x402: { ...terms, amount: "5000" } }] } } } },
  };
  catalog = await startCatalogServer([v2Item({ url: `${origin.url}/listed`, serviceName: "Origin" })]);
});
afterAll(async () => {
  await catalog?.close();
  await origin?.close();
  await ctx?.close();
});

const on = { manifestCadenceMs: 6 * HOUR, allowPrivateTargets: true };
const active = async () =>
  (await ctx.db.db.selectFrom("listings").select(["url", "method"]).where("is_active", "=", true).orderBy("url").execute()).map((r) => `${r.method} ${r.url}`);

describe("origin manifests", () => {
  it("are refused by the SSRF guard for a loopback origin unless private targets are allowed", async () => {
    const summaries = await ingestOnce(ctx, [catalog.url], { manifestCadenceMs: 6 * HOUR, allowPrivateTargets: false });
    const manifest = summaries.find((s) => s.sourceId === `manifest:${origin.url}`);
    expect(manifest).toMatchObject({ complete: false, status: "error" });
    expect(requests).toEqual([]);
    expect(await active()).toEqual([`POST ${origin.url}/listed`]);
  });

  it("are found at the origins a source names and ingested as a source of kind manifest", async () => {
    // The refused poll backed the manifest off; a new ingester past the backoff polls it.
    ctx.clock.advance(2 * HOUR);
    const summaries = await ingestOnce(ctx, [catalog.url], on);
    const manifest = summaries.find((s) => s.sourceId === `manifest:${origin.url}`);
    expect(manifest).toMatchObject({ complete: true, status: "ok", pages: 2, itemsValid: 3 });
    expect(requests.sort()).toEqual(["/.well-known/x402", "/free", "/openapi.json", "/paid"]);
    expect(await active()).toEqual([`POST ${origin.url}/listed`, `GET ${origin.url}/paid`, `POST ${origin.url}/search`, `GET ${origin.url}/weather`]);
    const paid = await ctx.db.db.selectFrom("listings").select(["price_atomic", "pay_to"]).where("url", "=", `${origin.url}/paid`).executeTakeFirstOrThrow();
    expect(paid).toEqual({ price_atomic: "7000", pay_to: PAYEE });
    const row = await ctx.db.db.selectFrom("catalog_sources").select(["kind", "url"]).where("id", "=", `manifest:${origin.url}`).executeTakeFirstOrThrow();
    expect(row).toEqual({ kind: "manifest", url: origin.url });
    const search = await ctx.db.db
      .selectFrom("listing_sources as s")
      .innerJoin("listings as l", "l.id", "s.listing_id")
      .select(["s.price_atomic", "s.pay_to", "s.network"])
      .where("l.url", "=", `${origin.url}/search`)
      .executeTakeFirstOrThrow();
    expect(search).toEqual({ price_atomic: "5000", pay_to: PAYEE, network: "eip155:84532" });
  });

  it("are polled at the slower manifest cadence, and what a manifest drops leaves", async () => {
    requests.length = 0;
    nextCadence(ctx);
    await ingestOnce(ctx, [catalog.url], on);
    expect(requests).toEqual([]);
    openapi = { openapi: "3.1.0", paths: {} };
    // A resource that gives no answer this time is not taken for gone.
    paidBroken = true;
    ctx.clock.advance(6 * HOUR);
    const summaries = await ingestOnce(ctx, [catalog.url], on);
    expect(summaries.find((s) => s.sourceId === `manifest:${origin.url}`)).toMatchObject({ complete: true, removed: 1 });
    expect(await active()).toEqual([`POST ${origin.url}/listed`, `GET ${origin.url}/paid`, `GET ${origin.url}/weather`]);
  });

  it("are not catalog polls: whats-new and readiness count the configured catalog's only", async () => {
    const since = new Date(0);
    const polls = await ctx.db.db.selectFrom("catalog_polls").select(["source_id", "finished_at"]).where("complete", "=", true).execute();
    const catalogPolls = polls.filter((p) => !p.source_id.startsWith("manifest:"));
    expect(polls.length).toBeGreaterThan(catalogPolls.length);
    const diff = await ctx.services.whatsNew.changes(since, 10, ctx.clock.now());
    expect(diff.summary.polls_in_window).toBe(
      (await ctx.db.db.selectFrom("catalog_polls").select("id").where("source_id", "not like", "manifest:%").execute()).length,
    );
    const newest = Math.max(...catalogPolls.map((p) => p.finished_at!.getTime()));
    expect((await readFreshness(ctx.db, since)).catalogPollAt?.getTime()).toBe(newest);
  });

  it("that fail to answer take nothing away", async () => {
    const before = await active();
    await origin.close();
    ctx.clock.advance(7 * HOUR);
    const summaries = await ingestOnce(ctx, [catalog.url], on);
    expect(summaries.find((s) => s.sourceId === `manifest:${origin.url}`)).toMatchObject({ complete: false, removed: 0 });
    expect(await active()).toEqual(before);
  });
});
