import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, type App } from "../../src/http/app.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { refreshDeliverySummaries } from "../../src/services/delivery/index.js";
import { MINUTE } from "../../src/services/signals/constants.js";
import { recompute, seedListing } from "../helpers/catalog-fixtures.js";
import { createTestContext, type TestContext } from "../helpers/context.js";

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
  const day = ctx.clock.now().toISOString().slice(0, 10);
  const settlements = {
    attribution: "amount",
    calls_24h: 4,
    calls_7d: 9,
    calls_30d: 17,
    volume_usdc_24h: "0.004",
    volume_usdc_7d: "0.009",
    volume_usdc_30d: "0.017",
    distinct_payers_30d: 5,
    first_settled_at: ctx.clock.now().toISOString(),
    last_settled_at: ctx.clock.now().toISOString(),
    known_facilitator_share: 0.8,
    pay_to: {
      address: "0x" + "ab".repeat(20),
      calls_30d: 20,
      volume_usdc_30d: "0.02",
      distinct_payers_30d: 6,
      unattributed_calls_30d: 1,
      listings: 2,
      hosts: 1,
    },
    self_dealing: false,
    used_30d: true,
    ghost_after: ctx.clock.now().toISOString(),
    daily: [{ day, calls: 4, volume_usdc: "0.004" }],
    indexed_from_block: "1",
    indexed_to_block: "900",
  };
  await ctx.db.db.updateTable("signal_snapshots").set({ settlements }).where("listing_id", "=", paid).execute();
  const at = new Date(ctx.clock.now().getTime() - MINUTE);
  await ctx.db.db
    .insertInto("outcome_reports")
    .values({
      id: "or_" + "a".repeat(26),
      listing_id: paid,
      network: "eip155:84532",
      tx_hash: "0x" + "cd".repeat(32),
      log_index: 1,
      payer: "0x" + "12".repeat(20),
      outcome: "undelivered",
      detail: "<script>alert(1)</script> paid, got a 500",
      settled_at: at,
      amount_atomic: "1000",
      signature: "0x00",
      issued_at: at,
      accepted_at: at,
    })
    .execute();
  await refreshDeliverySummaries(ctx.db.db, [paid], ctx.clock.now());
});
afterAll(() => ctx.close());

const page = async (id: number) => (await app.request(`/endpoints/${id}`)).text();

describe("the endpoint page's chain evidence", () => {
  it("shows paid volume beside uptime: calls, volume, payers, facilitator share and attribution", async () => {
    const text = await page(paid);
    expect(text.indexOf('id="paid-volume"')).toBeGreaterThan(text.indexOf('id="uptime"'));
    expect(text).toContain('<strong id="settled-30d">17</strong>');
    expect(text).toContain('<strong id="payers-30d">5</strong>');
    expect(text).toContain("0.017 USDC");
    expect(text).toContain("Sent by a known facilitator: 80%");
    expect(text).toContain("the settlements of exactly its price count here");
    expect(await page(unindexed)).toContain("Not indexed");
  });

  it("shows a payer's failure report, its text escaped", async () => {
    const text = await page(paid);
    expect(text).toContain('id="payer-reports"');
    expect(text).toContain('<strong id="payer-failures">1 of 1</strong>');
    expect(text).toContain("paid, nothing delivered");
    expect(text).toContain("&lt;script&gt;alert(1)&lt;/script&gt; paid, got a 500");
    expect(text).not.toContain("<script>alert(1)");
    expect(await page(unindexed)).not.toContain('id="payer-reports"');
  });
});
