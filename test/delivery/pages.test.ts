import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { privateKeyToAccount } from "viem/accounts";
import { createApp, type App } from "../../src/http/app.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { refreshDeliverySummaries } from "../../src/services/delivery/index.js";
import { newCheckId } from "../../src/services/delivery/ledger.js";
import { MINUTE } from "../../src/services/signals/constants.js";
import { recompute, seedListing } from "../helpers/catalog-fixtures.js";
import { createTestContext, type TestContext } from "../helpers/context.js";

const KEY = `0x${"5c".repeat(32)}` as const;
let ctx: TestContext;
let app: App;
let checked: number;
let unchecked: number;
const id = newCheckId();

beforeAll(async () => {
  ctx = await createTestContext({ CANARY_PRIVATE_KEY: KEY, CANARY_BUDGET_USDC_PER_DAY: "2.5", CANARY_INTERVAL_HOURS: "12" });
  app = createApp({ ctx, routes: productRoutes });
  checked = await seedListing(ctx, { url: "https://paid.example/takes-money" });
  unchecked = await seedListing(ctx, { url: "https://paid.example/never" });
  await recompute(ctx);
  const at = new Date(ctx.clock.now().getTime() - MINUTE);
  await ctx.db.db
    .insertInto("delivery_checks")
    .values({
      id,
      listing_id: checked,
      url: "https://paid.example/takes-money",
      method: "GET",
      host: "paid.example",
      state: "done",
      outcome: "undelivered",
      reason: "<script>alert(1)</script>",
      spent_atomic: "1000",
      tx: "0x" + "ef".repeat(32),
      started_at: at,
      finished_at: at,
    })
    .execute();
  await refreshDeliverySummaries(ctx.db.db, [checked], ctx.clock.now());
});
afterAll(() => ctx.close());

describe("the paid checker on the pages (decision 0051)", () => {
  it("/prober names the checker's wallet, budget, ceiling and cadence, never its key", async () => {
    const text = await (await app.request("/prober")).text();
    expect(text).toContain(privateKeyToAccount(KEY).address);
    expect(text).toContain("at most 2.5 USDC in any 24 hours");
    expect(text).toContain("above 0.01 USDC");
    expect(text).toContain("once every 12 hours");
    expect(text.toLowerCase()).not.toContain("5c".repeat(32));
  });

  it("the endpoint page shows its checks with a link to each signed document, escaping what the endpoint sent", async () => {
    const text = await (await app.request(`/endpoints/${checked}`)).text();
    expect(text).toContain("Paid delivery checks");
    expect(text).toContain("paid, nothing delivered");
    expect(text).toContain(`href="http://lookout.test/api/v1/delivery-checks/${id}"`);
    expect(text).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(text).not.toContain("<script>alert(1)</script>");
    expect(await (await app.request(`/endpoints/${unchecked}`)).text()).toContain("Not checked by the paid checker yet");
  });
});
