import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { LookupFunction } from "../../src/lib/ssrf-guard.js";
import { startAlerter, type Alerter } from "../../src/workers/alerter.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { startReceiver, type Receiver } from "./helpers/receiver.js";
import { deliveriesOf, goDown, healthyListing, until, watchOn } from "./helpers/watch-fixtures.js";

const loopback: LookupFunction = (_host, _opts, cb) => cb(null, [{ address: "127.0.0.1", family: 4 }]);

/**
 * A receiver host that never answers. `busiest(ms)`: the most requests that arrived within any
 * `ms`; below the attempt time-out that is the number of attempts in flight at once, as a slot's
 * next attempt starts only after its previous one timed out.
 */
async function hangingHost(): Promise<{ url: string; total: () => number; busiest: (ms: number) => number; close(): Promise<void> }> {
  const arrivals: number[] = [];
  const server: Server = createServer(() => arrivals.push(Date.now()));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://hanging.test:${(server.address() as AddressInfo).port}`,
    total: () => arrivals.length,
    busiest: (ms) => Math.max(0, ...arrivals.map((t) => arrivals.filter((u) => u > t - ms && u <= t).length)),
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/**
 * Issue 27: one customer's 64 watches whose receiver never answers, and another customer's
 * watch. Evaluation and delivery run on their own loops, as in production, with a 2 s attempt
 * time-out; the other customer's alert must arrive within a few seconds of being raised.
 */
describe("fair delivery", () => {
  let ctx: TestContext;
  let rx: Receiver;
  let alerter: Alerter | undefined;
  beforeEach(async () => {
    ctx = await createTestContext({ ALLOW_PRIVATE_WEBHOOKS: "true" });
    rx = await startReceiver();
  });
  afterEach(async () => {
    await alerter?.stop();
    await rx.close();
    await ctx.close();
  });

  it("delivers another customer's alert within seconds while 64 watches hang, and holds at most 2 requests open per receiver host", async () => {
    const hang = await hangingHost();
    try {
      const slowListing = await healthyListing(ctx);
      const otherListing = await healthyListing(ctx);
      for (let i = 0; i < 64; i++) await watchOn(ctx, rx, `/hang/${i}`, slowListing.url, { webhookUrl: `${hang.url}/hang/${i}`, lookup: loopback });
      const port = new URL(rx.url).port;
      const other = await watchOn(ctx, rx, "/other", otherListing.url, { webhookUrl: `http://other.test:${port}/other`, lookup: loopback });
      alerter = startAlerter(ctx, { tickMs: 200, deliveryTimeoutMs: 2_000, lookup: loopback, random: () => 0.5 });
      await alerter.runNow();

      // The slow customer's 64 alerts are raised and its receiver starts hanging.
      await goDown(ctx, slowListing.id);
      await until(() => hang.total() >= 2, 5_000);
      expect(await ctx.db.db.selectFrom("webhook_deliveries").select("id").where("status", "=", "pending").execute()).toHaveLength(64);

      // Then the other customer's endpoint goes down; the loops raise and deliver its alert.
      await goDown(ctx, otherListing.id);
      const raised = Date.now();
      await until(() => rx.on("/other").length > 0, 10_000);
      const waited = rx.on("/other")[0]!.at - raised;
      expect(waited, "ms from raising to delivery").toBeLessThan(3_000);
      expect(rx.on("/other")[0]).toMatchObject({ verified: true, payload: { watchId: other.watchId, signal: "dead", state: "fired" } });
      await until(() => hang.total() >= 6, 10_000);
      expect(hang.busiest(1_900), "requests to the hanging host within 1.9 s").toBe(2);
      expect((await deliveriesOf(ctx, other.watchId))[0]).toMatchObject({ status: "delivered", attempts: 1 });
    } finally {
      await alerter?.stop();
      alerter = undefined;
      await hang.close();
    }
  }, 60_000);

  it("paces attempts to one receiver host with its token bucket, across watches", async () => {
    const l = await healthyListing(ctx);
    for (let i = 0; i < 9; i++) await watchOn(ctx, rx, `/paced/${i}`, l.url);
    // A burst of 3, then 2 a second: nine alerts to one host take at least 3 s, whoever subscribed them.
    alerter = startAlerter(ctx, { tickMs: 60_000, hostRate: { capacity: 3, perSecond: 2 }, random: () => 0.5 });
    await alerter.runNow();
    await goDown(ctx, l.id);
    const started = Date.now();
    expect(await alerter.runNow()).toMatchObject({ fired: 9, delivered: 9 });
    const at = rx.received.map((r) => r.at - started).sort((a, b) => a - b);
    expect(at).toHaveLength(9);
    expect(at[8]! - at[0]!).toBeGreaterThanOrEqual(2_500);
    const deferrals = await ctx.metrics.getSingleMetric("lookout_webhook_host_deferrals_total")!.get();
    expect(deferrals.values[0]!.value).toBeGreaterThan(0);
    // Never more than the burst plus one second's tokens within any second.
    expect(Math.max(...at.map((t) => at.filter((u) => u >= t && u < t + 1_000).length))).toBeLessThanOrEqual(5);
  }, 60_000);
});
