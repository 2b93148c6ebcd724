import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, type App } from "../../src/http/app.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { SEARCH_LIMIT } from "../../src/http/explorer/search-limit.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { HOSTILE, seedListCatalog, type ListCatalog } from "./list-catalog.js";

let ctx: TestContext;
let app: App;
let cat: ListCatalog;
let caller = 0;
/** Each request from its own address unless one is named: only the rate-limit test shares one. */
const get = (path: string, ip = `198.51.100.${++caller % 250}`) => app.request(path, { headers: { "x-forwarded-for": ip } });
const page = async (path: string) => {
  const res = await get(path);
  return { res, text: await res.text() };
};
const rowIds = (text: string) => [...text.matchAll(/<tr data-id="(\d+)"/g)].map((m) => Number(m[1]));

beforeAll(async () => {
  ctx = await createTestContext({ TRUST_PROXY: "true" });
  app = createApp({ ctx, routes: productRoutes });
  cat = await seedListCatalog(ctx);
});
afterAll(() => ctx.close());

describe("the explorer's list pages", () => {
  it("answers /endpoints with the rows, a GET form, sort links, pages and a minute of caching", async () => {
    const { res, text } = await page("/endpoints");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toMatch(/^public, max-age=60/);
    expect(rowIds(text)).toHaveLength(50);
    expect(text).toContain(`<form class="filters" method="get" action="/endpoints"`);
    expect(text).toContain(`href="/endpoints?sort=uptime"`);
    expect(text).toContain(`href="/endpoints?page=2"`);
    expect(text).toContain(`href="/endpoints/${cat.forecast}"`);
    expect(text).toContain(`href="/providers/0xsky"`);
    expect(text).toContain(`href="/services/skycast"`);
    expect(text).toContain("Endpoints 1 to 50 of 67");
  });

  it("narrows with the form's fields, empty ones meaning no filter", async () => {
    const { text } = await page("/endpoints?q=wx.example&verdict=&warning=dead&category=&min_price=&max_price=");
    expect(rowIds(text)).toEqual([cat.dead]);
    expect(text).toMatch(/<option value="dead" selected>/);
    expect(rowIds((await page("/endpoints?q=wx.example&sort=latency&dir=desc")).text)).toEqual([cat.hourly, cat.dead, cat.forecast]);
  });

  it("draws a sparkline per row from its own days, labelled with the numbers", async () => {
    const { text } = await page("/endpoints?q=wx.example/v2");
    const svg = /<svg class="spark"[^>]*>/.exec(text)![0];
    expect(svg).toContain(`role="img"`);
    expect(svg).toMatch(/data-uptime="100,100,100,[\d.]+,0,0,0"/);
    expect(svg).toMatch(/aria-label="Uptime per day over the last 7 days, oldest first: 100%, 100%, 100%, [\d.]+%, 0%, 0%, 0%"/);
  });

  it("shows provider and service pages with their totals, and 404 for unknown ids", async () => {
    const sky = await page("/providers/0xsky");
    expect(sky.res.status).toBe(200);
    expect(rowIds(sky.text)).toEqual([cat.forecast, cat.hourly, cat.dead]);
    expect(sky.text).toContain(`flagged</th><td>1 (<a href="/providers/0xsky?warning=dead">dead</a>: 1)`);
    expect(rowIds((await page("/providers/0xsky?warning=dead")).text)).toEqual([cat.dead]);
    expect(sky.text).toContain(`href="/providers/0xsky?sort=price"`);
    const gold = await page("/services/goldmine");
    expect(gold.text).toMatch(/endpoints listed<\/th><td>1</);
    expect(gold.text).toContain(`flagged</th><td>1 (<a href="/services/goldmine?warning=decoy_price_extreme">decoy_price_extreme</a>: 1)`);
    expect((await get("/providers/0xnobody")).status).toBe(404);
    expect((await get("/services/nothing")).status).toBe(404);
  });

  it("refuses a bad query with a 400 page saying what is wrong, before reading anything", async () => {
    for (const [query, message] of [
      ["sort=bogus", "sort is one of listed, uptime, latency, latency_avg, price, volume"],
      ["min_price=abc", "min_price is a USDC amount"],
      ["min_price=5&max_price=1", "min_price is above max_price"],
      ["page=21", "page is at most 20"],
      ["page=0", "page starts at 1"],
      [`q=${"x".repeat(101)}`, "the search is at most 100 characters"],
      ["warning=%3Cb%3E", "warning is one of"],
    ] as const) {
      const { res, text } = await page(`/endpoints?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      expect(text).toContain(message);
    }
  });

  it("rate-limits searches per client address with a 429 page and Retry-After", async () => {
    const ip = "203.0.113.9";
    for (let i = 0; i < SEARCH_LIMIT.capacity; i++) expect((await get(`/endpoints?q=wx&page=1`, ip)).status).toBe(200);
    const refused = await get("/endpoints?verdict=pay", ip);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBe(Math.ceil(1 / SEARCH_LIMIT.perSecond));
    expect(refused.headers.get("cache-control")).toBe("no-store");
    expect(await refused.text()).toContain("Too many searches");
    expect((await get("/endpoints?page=2", ip)).status).toBe(429); // deep pages count too
    expect((await get("/endpoints", ip)).status).toBe(200); // the first page does not
    expect((await get("/endpoints?q=wx", "203.0.113.10")).status).toBe(200);
    ctx.clock.advance(Math.ceil(1 / SEARCH_LIMIT.perSecond) * 1000);
    expect((await get("/endpoints?q=wx", ip)).status).toBe(200);
  });

  it("shows a hostile service name as text on every page", async () => {
    for (const path of ["/endpoints?q=evil.example", "/providers/0xevil", `/services/${encodeURIComponent("-script-alert-x-script-")}`]) {
      const { res, text } = await page(path);
      expect(res.status, path).toBe(200);
      expect(text).not.toContain(HOSTILE);
      expect(text).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    }
  });
});
