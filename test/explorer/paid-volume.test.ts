import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, type App } from "../../src/http/app.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { recompute, seedListing } from "../helpers/catalog-fixtures.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { seedPaidEvidence } from "./paid-volume-seed.js";

/** The endpoint page beside uptime (decision 0052): paid volume from the chain, and payers' reports. */
let ctx: TestContext;
let app: App;
let paid: number;
let unindexed: number;

beforeAll(async () => {
  ctx = await createTestContext();
  app = createApp({ ctx, routes: productRoutes });
  paid = await seedListing(ctx, { url: "https://volume.example/q" });
  unindexed = await seedListing(ctx, { url: "https://volume.example/other" });
  await recompute(ctx);
  await seedPaidEvidence(ctx, paid);
});
afterAll(() => ctx.close());

const page = async (id: number) => (await app.request(`/endpoints/${id}`)).text();
const rowIds = (text: string) => [...text.matchAll(/<tr data-id="(\d+)"/g)].map((m) => Number(m[1]));

describe("the endpoint page's chain evidence", () => {
  it("shows paid volume beside uptime: calls, volume, payers, last settlement, facilitator share and attribution", async () => {
    const text = await page(paid);
    expect(text.indexOf('id="paid-volume"')).toBeGreaterThan(text.indexOf('id="uptime"'));
    expect(text.indexOf('id="paid-volume"')).toBeLessThan(text.indexOf('id="latency"'));
    expect(text).toContain('<strong id="settled-30d">17</strong> in 30 days, <span id="settled-7d">9</span> in 7, <span id="settled-24h">4</span> in 24 hours');
    expect(text).toContain('<td class="price" id="volume-30d">0.017 USDC</td>');
    expect(text).toContain('<strong id="payers-30d">5</strong>');
    expect(text).toContain('<td id="facilitator-share">80% sent by a known facilitator</td>');
    expect(text).toContain("by its price among 2 listings on this payTo");
    expect(text).toMatch(/last settlement<\/th><td><time class="rel"/);
    // 30 bars, one per UTC day, today's the tallest (the only day with settlements).
    expect(text.match(/<rect x="\d+" y="\d+" width="8"/g)).toHaveLength(30);
    expect(text).toContain(`<rect x="290" y="0" width="8" height="40"><title>${ctx.clock.now().toISOString().slice(0, 10)}: 4 calls, 0.004 USDC</title>`);
    expect(text).not.toContain('id="self-dealing"');
    expect(await page(unindexed)).toContain("Not indexed");
  });

  it("shows a payer's failure report, marked failed, its text escaped", async () => {
    const text = await page(paid);
    expect(text).toContain('<strong id="payer-failures">1 of 1</strong>');
    expect(text).toContain('<span id="payers-failed-7d">1</span>');
    expect(text).toContain('<tr class="report-failed"><td><strong>failed:</strong> paid, nothing delivered</td>');
    expect(text).toContain(`<code title="0x${"12".repeat(20)}">0x1212…1212</code>`);
    expect(text).toContain("0.001 USDC");
    expect(text).toContain("&lt;script&gt;alert(1)&lt;/script&gt; paid, got a 500");
    expect(text).not.toContain("<script>alert(1)");
    expect(await page(unindexed)).toContain("No wallet that paid this endpoint has reported");
  });

  it("names a shared payTo's attribution and self-dealing, and a share without a known facilitator", async () => {
    const row = await ctx.db.db.selectFrom("signal_snapshots").select("settlements").where("listing_id", "=", paid).executeTakeFirstOrThrow();
    const changed = { ...(row.settlements as object), attribution: "pay_to", self_dealing: true, known_facilitator_share: null };
    await ctx.db.db.updateTable("signal_snapshots").set({ settlements: changed }).where("listing_id", "=", paid).execute();
    const text = await page(paid);
    expect(text).toContain("shared with the payTo&#39;s 1 other listing: its price is not its own");
    expect(text).toContain('<p id="self-dealing"><strong>Self-dealing:</strong>');
    expect(text).toContain('<td id="facilitator-share">no settlement in 30 days</td>');
  });
});

describe("the list by paid volume", () => {
  it("sorts by 30 days' volume, most first and the unindexed last, with a settled calls cell and a sort header", async () => {
    const res = await app.request("/endpoints?sort=volume", { headers: { "x-forwarded-for": "198.51.100.7" } });
    const text = await res.text();
    expect(rowIds(text)).toEqual([paid, unindexed]);
    expect(text).toContain('<th scope="col" aria-sort="descending"><a href="/endpoints?sort=volume&amp;dir=asc">Paid 30 d (USDC) ▼</a></th>');
    expect(text).toContain('<td class="num">0.017 (17 calls)</td>');
    expect(text).toContain('<td class="num">not indexed</td>');
    const ascending = await (await app.request("/endpoints?sort=volume&dir=asc", { headers: { "x-forwarded-for": "198.51.100.8" } })).text();
    expect(rowIds(ascending)).toEqual([paid, unindexed]);
    expect(await (await app.request("/endpoints")).text()).toContain('<a href="/endpoints?sort=volume">Paid 30 d (USDC)</a>');
  });
});
