import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { LookupFunction } from "../../src/lib/ssrf-guard.js";
import { RETRY_DELAYS_MS, DELIVERY_LEASE_MS } from "../../src/services/watch/constants.js";
import { claimDelivery } from "../../src/services/watch/delivery-queue.js";
import { evaluateTransitions } from "../../src/services/watch/evaluate-transitions.js";
import { sendDelivery } from "../../src/services/watch/send-delivery.js";
import { createWebhookDispatcher } from "../../src/services/watch/webhook-dispatcher.js";
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

describe("nothing lost", () => {
  it("re-sends an attempt whose process died mid-delivery, under the same webhook-id, once its lease expired", async () => {
    const l = await healthyListing(ctx);
    const w = await watchOn(ctx, rx, "/r", l.url);
    await alerter.runNow();
    await goDown(ctx, l.id);
    expect(await evaluateTransitions({ db: ctx.db.db, clock: ctx.clock })).toMatchObject({ fired: 1 });

    // A process claims the alert, sends it, and dies before recording the attempt.
    const claimed = await claimDelivery(ctx.db.db, "crashed-process", ctx.clock.now(), DELIVERY_LEASE_MS);
    const dispatcher = createWebhookDispatcher({ allowPrivate: true });
    expect(await sendDelivery({ dispatcher, allowPrivate: true, wallClock: () => new Date() }, claimed!)).toEqual({ delivered: true, statusCode: 204 });
    await dispatcher.close();

    expect(await alerter.runNow()).toMatchObject({ attempted: 0 });
    ctx.clock.advance(DELIVERY_LEASE_MS);
    expect(await alerter.runNow()).toMatchObject({ attempted: 1, delivered: 1 });
    const got = rx.on("/r");
    expect(got.map((r) => r.id)).toEqual([claimed!.id, claimed!.id]);
    expect(got.every((r) => r.verified)).toBe(true);
    expect((await deliveriesOf(ctx, w.watchId))[0]).toMatchObject({ status: "delivered", attempts: 1, lease_owner: null });
  });

  it("delivers an alert queued before a restart from the new process", async () => {
    rx.answer("/q", (n) => (n === 0 ? { status: 503 } : { status: 204 }));
    const l = await healthyListing(ctx);
    const w = await watchOn(ctx, rx, "/q", l.url);
    await alerter.runNow();
    await goDown(ctx, l.id);
    expect(await alerter.runNow()).toMatchObject({ retrying: 1 });
    await alerter.stop();

    ctx.clock.advance(RETRY_DELAYS_MS[0]!);
    alerter = start("restarted");
    await alerter.runNow();
    expect((await deliveriesOf(ctx, w.watchId))[0]).toMatchObject({ status: "delivered", attempts: 2 });
    const got = rx.on("/q");
    expect(got).toHaveLength(2);
    expect(got[1]!.id).toBe(got[0]!.id);
  });

  it("two alerters on one database deliver each alert once", async () => {
    const listings = [];
    for (let i = 0; i < 12; i++) {
      const l = await healthyListing(ctx);
      rx.answer(`/m${i}`, () => ({ status: 204, delayMs: 30 }));
      await watchOn(ctx, rx, `/m${i}`, l.url);
      listings.push(l.id);
    }
    const second = start("second");
    extra.push(second);
    await Promise.all([alerter.runNow(), second.runNow()]);
    await goDown(ctx, ...listings);
    const [a, b] = await Promise.all([alerter.runNow(), second.runNow()]);
    expect(a.fired + b.fired).toBe(12);
    expect(a.delivered + b.delivered).toBe(12);
    expect(a.lost + b.lost).toBe(0);
    const ids = rx.received.map((r) => r.id);
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
    expect(rx.received.every((r) => r.verified)).toBe(true);
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
      const port = new URL(rx.url).port;
      const l = await healthyListing(strict);
      await expect(watchOn(strict, rx, "/x", l.url, { webhookUrl: `https://rebind.test:${port}/x`, lookup: resolvesTo("10.0.0.7") })).rejects.toMatchObject({
        status: 400,
        message: "webhookUrl resolves to a private, loopback, link-local or otherwise non-public address",
      });
      const w = await watchOn(strict, rx, "/rebind", l.url, { webhookUrl: `https://rebind.test:${port}/rebind`, lookup: resolvesTo("93.184.216.34") });
      await guarded.runNow();
      await goDown(strict, l.id);
      expect(await guarded.runNow()).toMatchObject({ attempted: 1, retrying: 1 });
      expect((await deliveriesOf(strict, w.watchId))[0]).toMatchObject({ last_response_code: null, last_error: "ssrf_blocked: the webhook host is not a public address" });

      // A row that bypassed the subscription check (a literal loopback address) is refused too.
      await strict.db.db.updateTable("watches").set({ webhook_url: `https://127.0.0.1:${port}/rebind` }).where("id", "=", w.watchId).execute();
      strict.clock.advance(RETRY_DELAYS_MS[0]!);
      expect(await guarded.runNow()).toMatchObject({ attempted: 1, retrying: 1 });
      expect((await deliveriesOf(strict, w.watchId))[0]!.last_error).toMatch(/^ssrf_blocked/);
      expect(rx.received).toHaveLength(0);
    } finally {
      await guarded.stop();
      await strict.close();
    }
  });
});
