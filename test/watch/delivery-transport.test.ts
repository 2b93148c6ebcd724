import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startAlerter, type Alerter } from "../../src/workers/alerter.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { startReceiver, type Receiver } from "./helpers/receiver.js";
import { deliveriesOf, goDown, healthyListing, watchOn } from "./helpers/watch-fixtures.js";

let ctx: TestContext;
let rx: Receiver;
let alerter: Alerter;
const extra: Alerter[] = [];
// random() = 0.5 puts every retry exactly on the schedule.
const start = (owner?: string) => startAlerter(ctx, { tickMs: 60_000, random: () => 0.5, owner });

beforeEach(async () => {
  ctx = await createTestContext({ ALLOW_PRIVATE_WEBHOOKS: "true" });
  rx = await startReceiver();
  alerter = start();
});
afterEach(async () => {
  for (const a of extra.splice(0)) await a.stop();
  await alerter.stop();
  await rx.close();
  await ctx.close();
});

describe("transport", () => {
  it("does not follow redirects, to a private address or anywhere else", async () => {
    rx.answer("/d", () => ({ status: 302, headers: { location: `${rx.url}/d-target` } }));
    rx.answer("/e", () => ({ status: 307, headers: { location: "http://169.254.169.254/latest/meta-data/" } }));
    const [l1, l2] = [await healthyListing(ctx), await healthyListing(ctx)];
    const w1 = await watchOn(ctx, rx, "/d", l1.url);
    const w2 = await watchOn(ctx, rx, "/e", l2.url);
    await alerter.runNow();
    await goDown(ctx, l1.id, l2.id);
    expect(await alerter.runNow()).toMatchObject({ attempted: 2, retrying: 2 });
    expect((await deliveriesOf(ctx, w1.watchId))[0]).toMatchObject({ last_response_code: 302, last_error: "redirect not followed (HTTP 302)" });
    expect((await deliveriesOf(ctx, w2.watchId))[0]).toMatchObject({ last_response_code: 307, last_error: "redirect not followed (HTTP 307)" });
    expect(rx.on("/d-target")).toHaveLength(0);
  });

  it("gives a hanging receiver 5 s while other receivers are served at once", async () => {
    rx.answer("/hang", () => "hang");
    const [l1, l2] = [await healthyListing(ctx), await healthyListing(ctx)];
    const slow = await watchOn(ctx, rx, "/hang", l1.url);
    await watchOn(ctx, rx, "/fast", l2.url);
    await alerter.runNow();
    await goDown(ctx, l1.id, l2.id);
    const started = Date.now();
    expect(await alerter.runNow()).toMatchObject({ attempted: 2, delivered: 1, retrying: 1 });
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(4_900);
    expect(took).toBeLessThan(8_000);
    expect(rx.on("/fast")[0]!.at - started).toBeLessThan(2_000);
    expect((await deliveriesOf(ctx, slow.watchId))[0]).toMatchObject({ status: "pending", attempts: 1, last_response_code: null, last_error: expect.stringMatching(/^timeout/) });
  });
});
