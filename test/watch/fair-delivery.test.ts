import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { LookupFunction } from "../../src/lib/ssrf-guard.js";
import { DELIVERY_PER_CUSTOMER, DELIVERY_PER_HOST } from "../../src/services/watch/constants.js";
import { createWatch } from "../../src/services/watch/create-watch.js";
import { startAlerter, type Alerter } from "../helpers/start-alerter.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { startReceiver, type Receiver } from "./helpers/receiver.js";
import { deliveriesOf, goDown, healthyListing, until, watchOn } from "./helpers/watch-fixtures.js";

const loopback: LookupFunction = (_host, _opts, cb) => cb(null, [{ address: "127.0.0.1", family: 4 }]);

/**
 * A receiver that never answers. `mostOpen()`: the most requests it held open at once, each
 * counted from its arrival until 250 ms before the server saw its connection close (the
 * sender's abort reaches the server a moment after the sender's next request may).
 */
async function hangingHost(): Promise<{ url: string; total: () => number; mostOpen: () => number; close(): Promise<void> }> {
  const spans: Array<{ from: number; to: number }> = [];
  const server: Server = createServer((req) => {
    const span = { from: Date.now(), to: Infinity };
    spans.push(span);
    req.socket.once("close", () => (span.to = Date.now() - 250));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://hanging.test:${(server.address() as AddressInfo).port}`,
    total: () => spans.length,
    mostOpen: () => Math.max(0, ...spans.map((s) => spans.filter((o) => o.from <= s.from && o.to > s.from).length)),
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/**
 * Issue 27: one customer's 64 watches whose receivers never answer, and another customer's
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

  /**
   * One customer's 64 watches on a receiver that never answers (all on one host, or each on its
   * own host name), then another customer's alert: it must arrive within a few seconds of being
   * raised. `inFlight`: the most requests the hanging receiver may hold at once.
   */
  async function slowCustomer(hostOf: (i: number) => string, inFlight: number): Promise<void> {
    const hang = await hangingHost();
    try {
      const slowListing = await healthyListing(ctx);
      const otherListing = await healthyListing(ctx);
      const port = new URL(hang.url).port;
      const deps = { db: ctx.db.db, clock: ctx.clock, rules: { allowPrivate: true }, lookup: loopback };
      for (let i = 0; i < 64; i++) {
        await createWatch(deps, { url: slowListing.url, webhookUrl: `http://${hostOf(i)}:${port}/hang/${i}`, signals: ["dead"], payer: "0xS10W" });
      }
      const other = await watchOn(ctx, rx, "/other", otherListing.url, { webhookUrl: `http://other.test:${new URL(rx.url).port}/other`, lookup: loopback });
      alerter = startAlerter(ctx, { tickMs: 200, deliveryTimeoutMs: 2_000, lookup: loopback, random: () => 0.5 });
      await alerter.runNow();

      // The slow customer's 64 alerts are raised and its receivers start hanging.
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
      await until(() => hang.total() >= 3 * inFlight, 15_000);
      expect(hang.mostOpen(), "requests the hanging receiver held open at once").toBe(inFlight);
      expect((await deliveriesOf(ctx, other.watchId))[0]).toMatchObject({ status: "delivered", attempts: 1 });
    } finally {
      await alerter?.stop();
      alerter = undefined;
      await hang.close();
    }
  }

  it("delivers another customer's alert within seconds while 64 watches on one host hang; one customer holds all but one of a host's attempts", async () => {
    await slowCustomer(() => "hanging.test", DELIVERY_PER_HOST - 1);
  }, 90_000);

  it("delivers another customer's alert within seconds while 64 watches on 64 host names hang; the customer holds at most 4 attempts", async () => {
    await slowCustomer((i) => `hang${i}.test`, DELIVERY_PER_CUSTOMER);
  }, 90_000);

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
