import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WARNING_GLOSSARY } from "@x402-lookout/contracts/glossary";
import { createApp, type App } from "../../src/http/app.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { recomputeSnapshots, recomputeVerdicts } from "../../src/services/evidence/index.js";
import { parseListing } from "../../src/services/catalog/parse-listing.js";
import { upsertGroups } from "../../src/services/catalog/upsert-groups.js";
import { upsertListings } from "../../src/services/catalog/upsert-listings.js";
import type { CatalogSource } from "../../src/services/catalog/source-spec.js";
import { startProber, type ProberHandle } from "../helpers/start-prober.js";
import { startCatalogServer, type CatalogServer } from "../catalog/helpers/catalog-server.js";
import { ingestOnce } from "../catalog/helpers/ingest.js";
import { v2Item } from "../catalog/helpers/items.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { startServer, USDC_BASE_SEPOLIA, type TestServer } from "../probes/helpers.js";

/**
 * Two catalog sources that list one endpoint with different payees or prices (issues 27 and 34,
 * decision 0032): a source's item is evidence about that source. Where the endpoint's own
 * challenge agrees with one source, a disagreeing source is only its own claim
 * (source_disagrees, informational); where it agrees with none, the takeover codes fire as before.
 */
const PAYEE = "0x" + "a".repeat(40);
const OTHER = "0x" + "b".repeat(40);
const MOVED = "0x" + "c".repeat(40);
const PATHS = ["/payee", "/price", "/agree", "/moved", "/honest"];
let ctx: TestContext;
let app: App;
let merchant: TestServer;
let prober: ProberHandle;
const catalogs: CatalogServer[] = [];

beforeAll(async () => {
  ctx = await createTestContext({ ALLOW_PRIVATE_TARGETS: "true" });
  app = createApp({ ctx, routes: productRoutes });
  // Every path quotes 0.001 USDC to PAYEE (but /moved, whose provider moved to MOVED).
  merchant = await startServer((req, res) => {
    req.resume();
    // Random paths are not found: a host that answers 402 everywhere is wildcard_402.
    if (!PATHS.includes(req.url ?? "")) return void res.writeHead(404).end();
    const challenge = {
      x402Version: 2,
      resource: { url: `${merchant.url}${req.url}` },
      accepts: [
        {
          scheme: "exact",
          network: "eip155:84532",
          amount: "1000",
          asset: USDC_BASE_SEPOLIA,
          payTo: req.url === "/moved" ? MOVED : PAYEE,
          maxTimeoutSeconds: 60,
          extra: { name: "USDC", version: "2" },
        },
      ],
    };
    res.writeHead(402, { "payment-required": Buffer.from(JSON.stringify(challenge)).toString("base64"), "content-type": "application/json" }).end("{}");
  });
  prober = startProber(ctx, { tickMs: 3_600_000, runAtStart: false, intervalSeconds: 600 });
});
afterAll(async () => {
  await prober.stop();
  await Promise.all(catalogs.map((c) => c.close()));
  await merchant.close();
  await ctx.close();
});

// Called for months: no new_provider, so an endpoint nothing is wrong with reads pay.
const quality = { l30DaysTotalCalls: 500, lastCalledAt: "2026-10-01T00:00:00.000Z" };
const item = (path: string, payTo: string, amount: string) =>
  v2Item({ url: `${merchant.url}${path}`, payTo, amount, network: "eip155:84532", asset: USDC_BASE_SEPOLIA, method: "GET", quality });

/** Lists each path in two sources (the second one polled last, so the listing shows its terms), then probes all. */
async function listTwice(first: unknown[], second: unknown[]) {
  const a = await startCatalogServer(first);
  const b = await startCatalogServer(second);
  catalogs.push(a, b);
  await ingestOnce(ctx, [a.url]);
  await ingestOnce(ctx, [b.url]);
  ctx.clock.advance(60_000);
  await prober.runNow();
  await recomputeSnapshots(ctx);
  await recomputeVerdicts(ctx.db, ctx.clock.now());
}

const preflight = (path: string) => ctx.services.reports.preflight(`${merchant.url}${path}`);

const listingId = async (path: string) =>
  Number((await ctx.db.db.selectFrom("listings").select("id").where("url", "=", `${merchant.url}${path}`).executeTakeFirstOrThrow()).id);

describe("sources that disagree", () => {
  // Decision 0032 changed two assertions here: a source the endpoint's challenge contradicts,
  // while the other agrees, raised pay_to_changed (payee) and price_mismatch (price); it now
  // raises source_disagrees only, and the verdict stays pay.
  it("a source the challenge contradicts on payee or price is its own claim; sources that agree show nothing", async () => {
    await listTwice(
      [item("/payee", OTHER, "1000"), item("/price", PAYEE, "2000"), item("/agree", PAYEE, "1000"), item("/moved", PAYEE, "1000")],
      [item("/payee", PAYEE, "1000"), item("/price", PAYEE, "1000"), item("/agree", PAYEE, "1000"), item("/moved", OTHER, "1000")],
    );
    const terms = await ctx.db.db.selectFrom("listing_quotes").select(["profile"]).where("source", "=", "catalog").distinct().execute();
    expect(terms).toHaveLength(2);

    for (const path of ["/payee", "/price"]) {
      const r = await preflight(path);
      expect(r.reason_codes, path).toEqual(["source_disagrees"]);
      expect(r.warnings, path).toEqual([]);
      expect(r, path).toMatchObject({ ok: true, recommended_action: "pay" });
    }
    const agree = await preflight("/agree");
    expect(agree.reason_codes).toEqual([]);
    expect(agree.recommended_action).toBe("pay");
  });

  it("a provider that moved its payTo, which every source contradicts, still reads pay_to_mismatch and pay_to_changed", async () => {
    const moved = await preflight("/moved");
    expect(moved.reason_codes).toEqual(expect.arrayContaining(["pay_to_mismatch", "pay_to_changed"]));
    expect(moved.reason_codes).not.toContain("source_disagrees");
    expect(moved).toMatchObject({ ok: false, recommended_action: "skip" });
  });

  it("a poisoned second catalog, sighted last, leaves the honest provider pay: its claim is on the page as its own, the snapshot allows", async () => {
    const honestItem = { ...item("/honest", PAYEE, "1000"), serviceName: "Honest API" };
    const [honest, poisoned] = [await startCatalogServer([honestItem]), await startCatalogServer([item("/honest", OTHER, "1000")])];
    catalogs.push(honest, poisoned);
    ctx.clock.advance(60_000);
    await ingestOnce(ctx, [honest.url]);
    ctx.clock.advance(60_000);
    await ingestOnce(ctx, [poisoned.url]);
    const id = await listingId("/honest");
    // The later source cannot rewrite what the incumbent says of the listing (it named OTHER and
    // another service); the page's facts and the catalog products keep the honest terms.
    const row = await ctx.db.db.selectFrom("listings").select(["pay_to", "service_id"]).where("id", "=", id).executeTakeFirstOrThrow();
    expect(row).toEqual({ pay_to: PAYEE, service_id: "honest-api" });
    const bySource = await ctx.db.db.selectFrom("listing_sources").select("pay_to").where("listing_id", "=", id).orderBy("first_seen_at").execute();
    expect(bySource.map((r) => r.pay_to)).toEqual([PAYEE, OTHER]);
    ctx.clock.advance(60_000);
    await prober.runNow();
    await recomputeSnapshots(ctx);
    await recomputeVerdicts(ctx.db, ctx.clock.now());

    const r = await preflight("/honest");
    expect(r.reason_codes).toEqual(["source_disagrees"]);
    expect(r).toMatchObject({ ok: true, recommended_action: "pay" });
    const snap = await ctx.db.db.selectFrom("signal_snapshots").select("detail").where("listing_id", "=", id).executeTakeFirstOrThrow();
    const catalog = (snap.detail as { quote: { catalog: Record<string, unknown> } }).quote.catalog;
    expect(catalog).toMatchObject({ listed: { payTo: PAYEE }, disagreeing: [{ payTo: OTHER, kind: "bazaar" }] });
    const poisonedId = (catalog.disagreeing as Array<{ source: string }>)[0]!.source;
    expect(poisonedId).toContain(new URL(poisoned.url).host);

    const text = await (await app.request(`/endpoints/${id}`)).text();
    expect(text).not.toContain(WARNING_GLOSSARY.pay_to_mismatch.title.replace("'", "&#39;"));
    expect(text).toContain(WARNING_GLOSSARY.source_disagrees.title);
    expect(text).toContain(`${poisonedId}'s claim: the endpoint's own challenge says otherwise`);
    // Only the poisoned source's row is marked as a claim; the honest source's and the probe's are not.
    expect(text.match(/class="claim"/g)).toHaveLength(1);

    const feed = await ctx.services.verdictFeed.snapshot();
    const entry = feed.entries.find((e) => e.url === `${merchant.url}/honest`);
    expect(entry).toMatchObject({ ok: true, action: "pay", pay_to: PAYEE });
  });

  it("the provider's own manifest outranks an older catalog in what the listing says; a later catalog never does", async () => {
    const url = `${merchant.url}/manifested`;
    const sources: CatalogSource[] = [
      { id: "old-catalog", url: "http://catalog.test/a", kind: "bazaar" },
      { id: `manifest:${merchant.url}`, url: merchant.url, kind: "manifest" },
      { id: "late-catalog", url: "http://catalog.test/b", kind: "bazaar" },
    ];
    await ctx.db.db
      .insertInto("catalog_sources")
      .values(sources.map((c) => ({ id: c.id, url: c.url, kind: c.kind })))
      .execute();
    const write = async (source: CatalogSource, payTo: string, serviceName: string) => {
      const parsed = parseListing({ ...item("/manifested", payTo, "1000"), serviceName }, 2);
      if (!parsed.ok) throw new Error(parsed.reason);
      ctx.clock.advance(60_000);
      await upsertGroups(ctx.db.db, [parsed.listing], ctx.clock.now(), new Set());
      await upsertListings(ctx.db.db, [parsed.listing], source, ctx.clock.now());
      return ctx.db.db.selectFrom("listings").select(["pay_to", "service_id"]).where("url", "=", url).executeTakeFirstOrThrow();
    };
    expect(await write(sources[0]!, OTHER, "Old Catalog Name")).toEqual({ pay_to: OTHER, service_id: "old-catalog-name" });
    expect(await write(sources[1]!, PAYEE, "Manifested")).toEqual({ pay_to: PAYEE, service_id: "manifested" });
    // Neither the older catalog's next poll nor a newcomer moves it off the manifest's word.
    expect(await write(sources[0]!, OTHER, "Old Catalog Name")).toEqual({ pay_to: PAYEE, service_id: "manifested" });
    expect(await write(sources[2]!, MOVED, "Late")).toEqual({ pay_to: PAYEE, service_id: "manifested" });
  });
});
