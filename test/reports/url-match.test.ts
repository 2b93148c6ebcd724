import { sql } from "kysely";
import { isRouteTemplate, matchKey } from "@x402-lookout/contracts/url-match";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, type App } from "../../src/http/app.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { HOUR, MINUTE } from "../../src/services/signals/constants.js";
import { recompute, seedListing, seedProbes, series } from "../helpers/catalog-fixtures.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { body } from "../helpers/http.js";
import { testDatabaseUrl } from "../helpers/db.js";

const SWITCHED = "https://weather.example/weather/current";
const TEMPLATE = "https://geo.example/weather/:city";
/** Spellings agents send for the catalogued SWITCHED listing: the same address parsed, then other addresses of it. */
const SAME = ["https://WEATHER.Example/weather/current", "https://weather.example:443/weather/current#top"];
const AS_SENT = [...SAME, "https://weather.example/weather/current?city=Lisbon", "https://weather.example/weather/current/"];

let ctx: TestContext;
let app: App;

beforeAll(async () => {
  ctx = await createTestContext({ ALLOW_PRIVATE_WEBHOOKS: "true" });
  app = createApp({ ctx, routes: productRoutes, validateResponses: true });
  // A decoy at 2500 USDC: its verdict (skip) is what every spelling of its URL must read.
  const decoy = await seedListing(ctx, { url: SWITCHED, service: "Skycast", provider: "0xaaa", price: "2500", method: "GET" });
  await seedProbes(
    ctx,
    decoy,
    series(HOUR, 10 * MINUTE, () => ({ price: "2500" })),
  );
  const geo = await seedListing(ctx, { url: TEMPLATE, service: "Geo", provider: "0xbbb", price: "0.002", method: "GET" });
  await seedProbes(
    ctx,
    geo,
    series(HOUR, 10 * MINUTE, () => ({ price: "0.002", latency: 90 })),
  );
  const forecast = await seedListing(ctx, { url: "https://geo.example/forecast", service: "Geo", provider: "0xbbb", price: "0.003", method: "GET" });
  await seedProbes(
    ctx,
    forecast,
    series(HOUR, 10 * MINUTE, () => ({ price: "0.003", latency: 80 })),
  );
  await recompute(ctx);
});
afterAll(async () => ctx?.close());

describe(`one URL matcher, on ${testDatabaseUrl ? "PostgreSQL" : "PGlite"}`, () => {
  it("the listings table keys and marks every address as the matcher does", async () => {
    const urls = [
      "https://a.example/",
      "https://a.example//",
      "https://a.example/x/",
      "https://a.example/x//?q=1",
      "http://a.example:8080/x/y?z=%2F",
      "https://xn--bcher-kva.example/b",
      "https://a.example/users/[id]/posts",
      "https://a.example/v/:version",
      "http://[::1]:8080/a/b",
      "https://a.example/a:b/c",
    ];
    for (const [i, url] of urls.entries()) await seedListing(ctx, { url, service: `keys-${i}`, active: false });
    const rows = await ctx.db.db.selectFrom("listings").select(["url_normalized", "match_key", "route_template"]).where("url", "in", urls).execute();
    expect(rows).toHaveLength(urls.length);
    for (const r of rows)
      expect({ url: r.url_normalized, key: r.match_key, template: r.route_template }).toEqual({
        url: r.url_normalized,
        key: matchKey(r.url_normalized),
        template: isRouteTemplate(r.url_normalized),
      });
  });

  it("preflight, batch and forensics give the catalogued verdict for URLs as agents send them, and name the listing", async () => {
    for (const url of AS_SENT) {
      const r = await ctx.services.reports.preflight(url);
      expect(r).toMatchObject({ ok: false, recommended_action: "skip", warnings: ["decoy_price_extreme"] });
      expect(r.metadata.matched).toEqual({ url: SWITCHED, method: "GET", by: SAME.includes(url) ? "exact" : "normalized" });
      expect((await ctx.services.reports.forensics(url)).warnings).toContain("decoy_price_extreme");
    }
    expect((await ctx.services.reports.preflight(SWITCHED)).metadata.matched?.by).toBe("exact");
    // The batch takes the two spellings of one address as one URL.
    const batch = await ctx.services.reports.batch(AS_SENT);
    expect(batch.results.map((r) => [r.url, r.recommended_action])).toEqual([AS_SENT[0], ...AS_SENT.slice(2)].map((u) => [u, "skip"]));
    const other = await ctx.services.reports.preflight("https://weather.example/weather/forecast");
    expect(other.warnings).toContain("unknown_endpoint");
    expect(other.metadata.matched).toBeNull();
  });

  it("a route template answers for the paths it names, a concrete neighbour for its own", async () => {
    const r = await ctx.services.reports.preflight({ url: "https://geo.example/weather/Lisbon?units=c", method: "GET" });
    expect(r).toMatchObject({ ok: true, recommended_action: "pay" });
    expect(r.metadata.matched).toEqual({ url: TEMPLATE, method: "GET", by: "route_template" });
    expect((await ctx.services.reports.preflight("https://geo.example/forecast/")).metadata.matched?.url).toBe("https://geo.example/forecast");
    expect((await ctx.services.reports.preflight("https://geo.example/weather/Lisbon/today")).metadata.matched).toBeNull();
  });

  it("the free trial, alternatives and a watch reach the same listing", async () => {
    const res = await app.request("/api/v1/preflight-trial", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: AS_SENT[2] }),
    });
    expect(await body(res)).toMatchObject({ recommended_action: "skip", metadata: { matched: { url: SWITCHED, by: "normalized" } } });
    const alt = await ctx.services.alternatives.find({ url: "https://GEO.example/weather/Porto", limit: 5 });
    expect(alt.match_strategy).toBe("url_target");
    expect(alt.target).toMatchObject({ url: TEMPLATE, known: true });
    const watch = await ctx.services.watch.create({ url: AS_SENT[3]!, webhookUrl: "http://127.0.0.1:9/hook", signals: ["decoy_price_extreme"] });
    const stored = await ctx.db.db
      .selectFrom("watches")
      .select(["url", "url_normalized", "listing_id"])
      .where("id", "=", watch.watchId)
      .executeTakeFirstOrThrow();
    const listing = await sql<{ id: number }>`select id from listings where url = ${SWITCHED}`.execute(ctx.db.db);
    expect(stored).toEqual({ url: AS_SENT[3], url_normalized: SWITCHED, listing_id: Number(listing.rows[0]!.id) });
  });
});
