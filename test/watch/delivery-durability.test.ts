import { describe, expect, it } from "vitest";
import type { LookupFunction } from "../../src/lib/ssrf-guard.js";
import { RETRY_DELAYS_MS, DELIVERY_LEASE_MS } from "../../src/services/watch/constants.js";
import { claimDelivery } from "../../src/services/watch/delivery-queue.js";
import { evaluateTransitions } from "../../src/services/watch/evaluate-transitions.js";
import { sendDelivery } from "../../src/services/watch/send-delivery.js";
import { createWebhookDispatcher } from "../../src/services/watch/webhook-dispatcher.js";
import { startAlerter } from "../helpers/start-alerter.js";
import { createTestContext } from "../helpers/context.js";
import { useDeliveryHarness } from "./helpers/delivery-harness.js";
import { deliveriesOf, goDown, healthyListing, watchOn } from "./helpers/watch-fixtures.js";

const h = useDeliveryHarness();

describe("nothing lost", () => {
  it("re-sends an attempt whose process died mid-delivery, under the same webhook-id, once its lease expired", async () => {
    const l = await healthyListing(h.ctx);
    const w = await watchOn(h.ctx, h.rx, "/r", l.url);
    await h.alerter.runNow();
    await goDown(h.ctx, l.id);
    expect(await evaluateTransitions({ db: h.ctx.db.db, soleWriter: h.ctx.db.soleWriter, clock: h.ctx.clock })).toMatchObject({ fired: 1 });

    // A process claims the alert, sends it, and dies before recording the attempt.
    const claimed = await claimDelivery(h.ctx.db.db, "crashed-process", h.ctx.clock.now(), DELIVERY_LEASE_MS);
    const dispatcher = createWebhookDispatcher({ allowPrivate: true });
    expect(await sendDelivery({ dispatcher, allowPrivate: true, wallClock: () => new Date() }, claimed!)).toEqual({ delivered: true, statusCode: 204 });
    await dispatcher.close();

    expect(await h.alerter.runNow()).toMatchObject({ attempted: 0 });
    h.ctx.clock.advance(DELIVERY_LEASE_MS);
    expect(await h.alerter.runNow()).toMatchObject({ attempted: 1, delivered: 1 });
    const got = h.rx.on("/r");
    expect(got.map((r) => r.id)).toEqual([claimed!.id, claimed!.id]);
    expect(got.every((r) => r.verified)).toBe(true);
    expect((await deliveriesOf(h.ctx, w.watchId))[0]).toMatchObject({ status: "delivered", attempts: 1, lease_owner: null });
  });

  it("delivers an alert queued before a restart from the new process", async () => {
    h.rx.answer("/q", (n) => (n === 0 ? { status: 503 } : { status: 204 }));
    const l = await healthyListing(h.ctx);
    const w = await watchOn(h.ctx, h.rx, "/q", l.url);
    await h.alerter.runNow();
    await goDown(h.ctx, l.id);
    expect(await h.alerter.runNow()).toMatchObject({ retrying: 1 });
    await h.alerter.stop();

    h.ctx.clock.advance(RETRY_DELAYS_MS[0]!);
    h.alerter = h.start("restarted");
    await h.alerter.runNow();
    expect((await deliveriesOf(h.ctx, w.watchId))[0]).toMatchObject({ status: "delivered", attempts: 2 });
    const got = h.rx.on("/q");
    expect(got).toHaveLength(2);
    expect(got[1]!.id).toBe(got[0]!.id);
  });

  it("two alerters on one database deliver each alert once", async () => {
    const listings = [];
    for (let i = 0; i < 12; i++) {
      const l = await healthyListing(h.ctx);
      h.rx.answer(`/m${i}`, () => ({ status: 204, delayMs: 30 }));
      await watchOn(h.ctx, h.rx, `/m${i}`, l.url);
      listings.push(l.id);
    }
    const second = h.start("second");
    h.extra.push(second);
    await Promise.all([h.alerter.runNow(), second.runNow()]);
    await goDown(h.ctx, ...listings);
    const [a, b] = await Promise.all([h.alerter.runNow(), second.runNow()]);
    expect(a.fired + b.fired).toBe(12);
    expect(a.delivered + b.delivered).toBe(12);
    expect(a.lost + b.lost).toBe(0);
    const ids = h.rx.received.map((r) => r.id);
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
    expect(h.rx.received.every((r) => r.verified)).toBe(true);
  });
});

describe("the SSRF guard at every connect", () => {
  const resolvesTo =
    (address: string): LookupFunction =>
    (_host, _opts, cb) =>
      cb(null, [{ address, family: 4 }]);

  it("refuses a name that passed the subscription check and now resolves to loopback (DNS rebinding)", async () => {
    const strict = await createTestContext();
    const guarded = startAlerter(strict, { tickMs: 60_000, random: () => 0.5, lookup: resolvesTo("127.0.0.1") });
    try {
      const port = new URL(h.rx.url).port;
      const l = await healthyListing(strict);
      await expect(watchOn(strict, h.rx, "/x", l.url, { webhookUrl: `https://rebind.test:${port}/x`, lookup: resolvesTo("10.0.0.7") })).rejects.toMatchObject({
        kind: "invalid_input",
        field: "webhookUrl",
        message: "webhookUrl resolves to a private, loopback, link-local or otherwise non-public address",
      });
      const w = await watchOn(strict, h.rx, "/rebind", l.url, { webhookUrl: `https://rebind.test:${port}/rebind`, lookup: resolvesTo("93.184.216.34") });
      await guarded.runNow();
      await goDown(strict, l.id);
      expect(await guarded.runNow()).toMatchObject({ attempted: 1, retrying: 1 });
      expect((await deliveriesOf(strict, w.watchId))[0]).toMatchObject({
        last_response_code: null,
        last_error: "ssrf_blocked: the webhook host is not a public address",
      });

      // A row that bypassed the subscription check (a literal loopback address) is refused too.
      await strict.db.db
        .updateTable("watches")
        .set({ webhook_url: `https://127.0.0.1:${port}/rebind` })
        .where("id", "=", w.watchId)
        .execute();
      strict.clock.advance(RETRY_DELAYS_MS[0]!);
      expect(await guarded.runNow()).toMatchObject({ attempted: 1, retrying: 1 });
      expect((await deliveriesOf(strict, w.watchId))[0]!.last_error).toMatch(/^ssrf_blocked/);
      expect(h.rx.received).toHaveLength(0);
    } finally {
      await guarded.stop();
      await strict.close();
    }
  });
});
