import { describe, expect, it } from "vitest";
import { RETRY_DELAYS_MS, MAX_ATTEMPTS } from "../../src/services/watch/constants.js";
import { seedProbes, recompute } from "../helpers/catalog-fixtures.js";
import { useDeliveryHarness } from "./helpers/delivery-harness.js";
import { deliveriesOf, goDown, goUp, healthyListing, watchOn } from "./helpers/watch-fixtures.js";

const h = useDeliveryHarness();

describe("alerts on a change of state", () => {
  it("sends one signed alert when dead fires and one when it clears, never one per probe", async () => {
    const l = await healthyListing(h.ctx);
    const w = await watchOn(h.ctx, h.rx, "/a", l.url);
    await h.alerter.runNow();
    expect(h.rx.on("/a")).toHaveLength(0);

    await goDown(h.ctx, l.id);
    expect(await h.alerter.runNow()).toMatchObject({ fired: 1, cleared: 0, delivered: 1 });
    const fired = h.rx.on("/a")[0]!;
    expect(fired.verified).toBe(true);
    expect(fired.payload).toMatchObject({
      type: "watch.signal.fired",
      watchId: w.watchId,
      url: l.url,
      signal: "dead",
      state: "fired",
      evidence: { probes_30m: 3, healthy_30m: 0, fail_streak: 3, min_failed_in_a_row: 3 },
      alertsRemaining: 99,
    });
    expect(Date.parse(fired.payload.firedAt)).toBe(h.ctx.clock.now().getTime());

    await seedProbes(h.ctx, l.id, [{ ago: 30_000, healthy: false }]);
    await recompute(h.ctx);
    expect(await h.alerter.runNow()).toMatchObject({ alerts: 0, attempted: 0 });

    await goUp(h.ctx, l.id);
    await h.alerter.runNow();
    const all = h.rx.on("/a");
    expect(all).toHaveLength(2);
    expect(all[1]).toMatchObject({ verified: true, payload: { state: "cleared", evidence: { probes_30m: 3, healthy_30m: 3 } } });
    expect(all[1]!.id).not.toBe(all[0]!.id);
    const rows = await deliveriesOf(h.ctx, w.watchId);
    expect(rows.map((r) => [r.id, r.state, r.status, r.attempts, r.last_response_code])).toEqual([
      [all[0]!.id, "fired", "delivered", 1, 204],
      [all[1]!.id, "cleared", "delivered", 1, 204],
    ]);
  });
});

describe("retries", () => {
  it("retries a failing receiver on the backoff schedule under the same webhook-id until it recovers", async () => {
    h.rx.answer("/b", (n) => (n < 2 ? { status: 500 } : { status: 200 }));
    const l = await healthyListing(h.ctx);
    const w = await watchOn(h.ctx, h.rx, "/b", l.url);
    await h.alerter.runNow();
    await goDown(h.ctx, l.id);
    expect(await h.alerter.runNow()).toMatchObject({ attempted: 1, retrying: 1 });
    let [d] = await deliveriesOf(h.ctx, w.watchId);
    expect(d).toMatchObject({ status: "pending", attempts: 1, last_response_code: 500, last_error: "HTTP 500" });
    expect(d!.next_attempt_at.getTime() - h.ctx.clock.now().getTime()).toBe(RETRY_DELAYS_MS[0]);

    expect(await h.alerter.runNow()).toMatchObject({ attempted: 0 });
    h.ctx.clock.advance(RETRY_DELAYS_MS[0]!);
    expect(await h.alerter.runNow()).toMatchObject({ attempted: 1, retrying: 1 });
    h.ctx.clock.advance(RETRY_DELAYS_MS[1]!);
    expect(await h.alerter.runNow()).toMatchObject({ attempted: 1, delivered: 1 });
    [d] = await deliveriesOf(h.ctx, w.watchId);
    expect(d).toMatchObject({ status: "delivered", attempts: 3, last_response_code: 200, last_error: null });
    const got = h.rx.on("/b");
    expect(got.map((r) => r.id)).toEqual([d!.id, d!.id, d!.id]);
    expect(got.every((r) => r.verified)).toBe(true);
    expect(new Set(got.map((r) => r.timestamp)).size).toBeGreaterThanOrEqual(1);
  });

  it("marks an alert failed after the last attempt and counts it once", async () => {
    h.rx.answer("/c", () => ({ status: 503 }));
    const l = await healthyListing(h.ctx);
    const w = await watchOn(h.ctx, h.rx, "/c", l.url);
    await h.alerter.runNow();
    await goDown(h.ctx, l.id);
    await h.alerter.runNow();
    for (const delay of RETRY_DELAYS_MS) {
      h.ctx.clock.advance(delay);
      await h.alerter.runNow();
    }
    const [d] = await deliveriesOf(h.ctx, w.watchId);
    expect(d).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS, last_response_code: 503 });
    h.ctx.clock.advance(3_600_000);
    expect(await h.alerter.runNow()).toMatchObject({ attempted: 0 });
    expect(h.rx.on("/c")).toHaveLength(MAX_ATTEMPTS);
    const row = await h.ctx.db.db.selectFrom("watches").select("alerts_remaining").where("id", "=", w.watchId).executeTakeFirstOrThrow();
    expect(row.alerts_remaining).toBe(99);
    const metric = await h.ctx.metrics.getSingleMetric("lookout_webhook_deliveries_total")!.get();
    const count = (status: string) => metric.values.find((v) => v.labels.status === status)?.value;
    expect([count("retrying"), count("failed")]).toEqual([MAX_ATTEMPTS - 1, 1]);
  });
});
