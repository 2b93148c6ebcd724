import { describe, expect, it } from "vitest";
import { useDeliveryHarness } from "./helpers/delivery-harness.js";
import { deliveriesOf, goDown, healthyListing, watchOn } from "./helpers/watch-fixtures.js";

const h = useDeliveryHarness();

describe("transport", () => {
  it("does not follow redirects, to a private address or anywhere else", async () => {
    h.rx.answer("/d", () => ({ status: 302, headers: { location: `${h.rx.url}/d-target` } }));
    h.rx.answer("/e", () => ({ status: 307, headers: { location: "http://169.254.169.254/latest/meta-data/" } }));
    const [l1, l2] = [await healthyListing(h.ctx), await healthyListing(h.ctx)];
    const w1 = await watchOn(h.ctx, h.rx, "/d", l1.url);
    const w2 = await watchOn(h.ctx, h.rx, "/e", l2.url);
    await h.alerter.runNow();
    await goDown(h.ctx, l1.id, l2.id);
    expect(await h.alerter.runNow()).toMatchObject({ attempted: 2, retrying: 2 });
    expect((await deliveriesOf(h.ctx, w1.watchId))[0]).toMatchObject({ last_response_code: 302, last_error: "redirect not followed (HTTP 302)" });
    expect((await deliveriesOf(h.ctx, w2.watchId))[0]).toMatchObject({ last_response_code: 307, last_error: "redirect not followed (HTTP 307)" });
    expect(h.rx.on("/d-target")).toHaveLength(0);
  });

  it("gives a hanging receiver 5 s while other receivers are served at once", async () => {
    h.rx.answer("/hang", () => "hang");
    const [l1, l2] = [await healthyListing(h.ctx), await healthyListing(h.ctx)];
    const slow = await watchOn(h.ctx, h.rx, "/hang", l1.url);
    await watchOn(h.ctx, h.rx, "/fast", l2.url);
    await h.alerter.runNow();
    await goDown(h.ctx, l1.id, l2.id);
    const started = Date.now();
    expect(await h.alerter.runNow()).toMatchObject({ attempted: 2, delivered: 1, retrying: 1 });
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(4_900);
    expect(took).toBeLessThan(8_000);
    expect(h.rx.on("/fast")[0]!.at - started).toBeLessThan(2_000);
    expect((await deliveriesOf(h.ctx, slow.watchId))[0]).toMatchObject({
      status: "pending",
      attempts: 1,
      last_response_code: null,
      last_error: expect.stringMatching(/^timeout/),
    });
  });
});
