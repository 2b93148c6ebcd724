import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAlerter, type Alerter } from "../helpers/start-alerter.js";
import { recompute } from "../helpers/catalog-fixtures.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { startCatalogServer, type CatalogServer } from "../catalog/helpers/catalog-server.js";
import { nextCadence, pollOnce } from "../catalog/helpers/ingest.js";
import { v2Item } from "../catalog/helpers/items.js";
import { startReceiver, type Receiver } from "./helpers/receiver.js";
import { watchOn } from "./helpers/watch-fixtures.js";

/**
 * Issue 35 item 8: a watch on a listing that left the catalog says so and alerts once (decision
 * 0039). The catalog really drops the item (a complete poll without it), the alerter really
 * delivers a signed webhook.
 */
const URL = "https://leaving.example/api/quote";
const OTHER = v2Item({ url: "https://staying.example/api", serviceName: "Staying" });
const ITEM = v2Item({ url: URL, serviceName: "Leaving", quality: { l30DaysTotalCalls: 5 } });
let ctx: TestContext;
let rx: Receiver;
let catalog: CatalogServer;
let alerter: Alerter;

beforeAll(async () => {
  ctx = await createTestContext({ ALLOW_PRIVATE_WEBHOOKS: "true" });
  rx = await startReceiver();
  catalog = await startCatalogServer([OTHER, ITEM]);
  alerter = startAlerter(ctx, { tickMs: 3_600_000 });
});
afterAll(async () => {
  await alerter?.stop();
  await catalog?.close();
  await rx?.close();
  await ctx?.close();
});

/** A complete poll of the catalog as it now stands, then the pipeline and two alerter passes. */
async function pollAndAlert(items: unknown[]) {
  catalog.items = items;
  nextCadence(ctx);
  expect(await pollOnce(ctx, catalog.url)).toMatchObject({ complete: true });
  await recompute(ctx);
  await alerter.runNow();
  await alerter.runNow();
}
const alerts = () => rx.on("/left").map((r) => (r.verified ? `${r.payload.type}:${r.payload.signal}` : `unverified:${r.verifyError}`));

describe("a watch whose listing leaves the catalog", () => {
  it("alerts once when it leaves, says so in its status, and alerts once more when it returns", async () => {
    await pollAndAlert([OTHER, ITEM]);
    const w = await watchOn(ctx, rx, "/left", URL, { signals: ["dead"] });
    await alerter.runNow();
    expect((await ctx.services.watch.status(w.watchId, w.secret))?.listing).toMatchObject({ listed: true });

    await pollAndAlert([OTHER]);
    await pollAndAlert([OTHER]);
    expect(alerts()).toEqual(["watch.signal.fired:left_catalog"]);
    const left = rx.on("/left")[0]!.payload;
    expect(left).toMatchObject({ watchId: w.watchId, url: URL, state: "fired", evidence: { listed: false, left_at: expect.any(String) }, alertsRemaining: 99 });
    const status = await ctx.services.watch.status(w.watchId, w.secret);
    expect(status).toMatchObject({ state: "active", alertsRemaining: 99, listing: { listed: false, evidence: { listed: false } } });
    expect(status!.deliveries.map((d) => `${d.signal}:${d.state}:${d.status}`)).toEqual(["left_catalog:fired:delivered"]);

    await pollAndAlert([OTHER, ITEM]);
    expect(alerts()).toEqual(["watch.signal.fired:left_catalog", "watch.signal.cleared:left_catalog"]);
    expect((await ctx.services.watch.status(w.watchId, w.secret))?.listing).toMatchObject({ listed: true, evidence: { listed: true, left_at: null } });
  });
});
