import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApp, type App } from "../../src/http/app.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { LANDING_BOUND_S, PAGE_CACHE } from "../../src/http/explorer/cache.js";
import { OVERVIEW_AGE } from "../../src/services/overview/service.js";
import { HOUR, MINUTE } from "../../src/services/signals/constants.js";
import { recompute, seedListing, seedProbes, series } from "../helpers/catalog-fixtures.js";
import { createTestContext, type TestContext } from "../helpers/context.js";

let ctx: TestContext;
let app: App;
const DECOY = "https://alpha.example/api/signal";
const from = (ip: string) => ({ headers: { "x-forwarded-for": ip } });
const text = (html: string, id: string) => new RegExp(`id="${id}"[^>]*>(?:<(?:a|time)[^>]*>)?([^<]*)`).exec(html)?.[1];

beforeAll(async () => {
  ctx = await createTestContext({ TRUST_PROXY: "true" });
  const seed = async (url: string, probes: Parameters<typeof seedProbes>[2], price = "0.01") => seedProbes(ctx, await seedListing(ctx, { url, price }), probes);
  await seed("https://wx.example/v1/forecast", series(2 * HOUR, 10 * MINUTE)); // 6 probes in the last hour, 12 in all
  await seed(DECOY, series(2 * HOUR, 10 * MINUTE), "2500");
  await seed(
    "https://gone.example/api",
    series(2 * HOUR, 10 * MINUTE, () => ({ healthy: false, status: 503 })),
  );
  await recompute(ctx);
  await ctx.db.db.insertInto("catalog_sources").values({ url: "http://catalog.test/discovery/resources" }).execute();
  await ctx.db.db
    .insertInto("catalog_polls")
    .values({
      source_url: "http://catalog.test/discovery/resources",
      started_at: new Date(ctx.clock.now().getTime() - 4 * MINUTE),
      finished_at: new Date(ctx.clock.now().getTime() - 3 * MINUTE),
    })
    .execute();
  app = createApp({ ctx, routes: productRoutes });
});

afterAll(() => ctx?.close());

describe("the landing page", () => {
  it("shows the live figures: endpoints, flags by warning code, probes of the last hour, ages", async () => {
    ctx.clock.advance(30_000);
    const res = await app.request("/");
    expect(res.headers.get("cache-control")).toBe(PAGE_CACHE.landing);
    const page = await res.text();
    expect([text(page, "watched"), text(page, "flagged"), text(page, "probes")]).toEqual(["3", "2", "18"]);
    expect(text(page, "poll-age")).toBe("3 min ago");
    expect(text(page, "verdict-age")).toBe("30 s ago");
    // Relative words, the exact moment in the markup (shown on focus).
    const verdictAt = new Date(ctx.clock.now().getTime() - 30_000).toISOString();
    expect(page).toContain(
      `<dd id="verdict-age"><time class="rel" datetime="${verdictAt}" title="${verdictAt.slice(0, 19).replace("T", " ")} UTC" tabindex="0">30 s ago`,
    );
    expect(page).toMatch(/<a href="\/endpoints\?warning=decoy_price_extreme">Decoy price<\/a> <code>decoy_price_extreme<\/code>: 1</);
    expect(page).toMatch(/<code>dead<\/code>: 1</);
    expect(page).toContain('<form class="check" id="check" method="get" action="/check">');
  });

  it("reads the figures again once they are 15 s old, serving the last ones meanwhile", async () => {
    await seedListing(ctx, { url: "https://new.example/api" });
    expect(text(await (await app.request("/")).text(), "watched")).toBe("3");
    ctx.clock.advance(15_000);
    expect(text(await (await app.request("/")).text(), "watched")).toBe("3"); // this view starts the refresh
    await vi.waitFor(async () => expect(text(await (await app.request("/")).text(), "watched")).toBe("4"));
  });

  it("never serves figures older than the bound it states: a view after a long quiet reads them anew first (issue 35 item 7)", async () => {
    const bound = `they are never shown more than ${LANDING_BOUND_S} s old`;
    expect(await (await app.request("/")).text()).toContain(bound);
    // The bound holds through a shared cache too: the overview's own limit plus what Cache-Control lets a cache keep.
    const [, maxAge, swr] = /max-age=(\d+), stale-while-revalidate=(\d+)/.exec(PAGE_CACHE.landing)!.map(Number);
    expect(OVERVIEW_AGE.maxAgeMs / 1000 + maxAge! + swr!).toBeLessThanOrEqual(LANDING_BOUND_S);
    await seedListing(ctx, { url: "https://later.example/api" });
    ctx.clock.advance(21 * MINUTE); // the issue's "newest verdict 21 min ago": no view in between
    const page = await (await app.request("/")).text();
    expect(text(page, "watched")).toBe("5"); // this very view, not the next one
    expect(page).toMatch(/id="figures-age">Figures read <time class="rel"[^>]*>just now</);
    ctx.clock.advance(OVERVIEW_AGE.maxAgeMs - 1);
    await seedListing(ctx, { url: "https://later.example/api2" });
    expect(text(await (await app.request("/")).text(), "watched")).toBe("5"); // still within the bound: the last figures
  });
});

describe("GET /check, the check form without JavaScript", () => {
  it("answers with the free trial's verdict, each warning in plain words, never cached", async () => {
    const res = await app.request(`/check?url=${encodeURIComponent(DECOY)}`, from("198.51.100.1"));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const page = await res.text();
    expect(page).toContain("Flagged: skip");
    expect(page).toContain("<strong>Decoy price</strong> (<code>decoy_price_extreme</code>)");
    expect(page).toContain(`value="${DECOY}"`);
    // The URL as an agent sends it reaches the catalogued listing, and the page says which.
    const asSent = await (await app.request(`/check?url=${encodeURIComponent(`${DECOY}/?symbol=ETH`)}`, from("198.51.100.1"))).text();
    expect(asSent).toContain("Flagged: skip");
    expect(asSent).toMatch(new RegExp(`catalogued as [A-Z]+ ${DECOY.replaceAll(".", "\\.")}<`));
  });

  it("shows the bare form when no URL is asked, and counts nothing", async () => {
    const res = await app.request("/check", from("198.51.100.2"));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<div id="check-result" aria-live="polite"></div>');
    const counted = await ctx.db.db.selectFrom("trial_counters").select("key").where("key", "=", "198.51.100.2").execute();
    expect(counted).toEqual([]);
  });

  it("refuses a URL that is not http(s) with 400, and the form stays", async () => {
    const res = await app.request("/check?url=ftp%3A%2F%2Fx.example%2F", from("198.51.100.2"));
    expect(res.status).toBe(400);
    const page = await res.text();
    expect(page).toMatch(/role="alert"><p>url: [^<]*http/);
    expect(page).toContain('id="check-url"');
  });

  it("shares the trial's daily quota with POST /api/v1/preflight-trial: the 11th call of an IP is a 429 page", async () => {
    const ip = "198.51.100.3";
    for (let i = 0; i < 5; i++) expect((await app.request(`/check?url=${encodeURIComponent(DECOY)}`, from(ip))).status).toBe(200);
    const post = { method: "POST", headers: { ...from(ip).headers, "content-type": "application/json" }, body: JSON.stringify({ url: DECOY }) };
    for (let i = 0; i < 5; i++) expect((await app.request("/api/v1/preflight-trial", post)).status).toBe(200);
    const res = await app.request(`/check?url=${encodeURIComponent(DECOY)}`, from(ip));
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await res.text()).toContain("free trial limit reached: 10 calls per client IP per UTC day");
  });
});
