import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productRoutes } from "../../src/http/routes/index.js";
import { createWatch } from "../../src/services/watch/create-watch.js";
import { startAlerter, type Alerter } from "../helpers/start-alerter.js";
import { recompute, seedListing, seedProbes } from "../helpers/catalog-fixtures.js";
import { body, refusedInput } from "../helpers/http.js";
import { startPaidService, type PaidService } from "../helpers/paid-service.js";
import { startReceiver, type Receiver } from "./helpers/receiver.js";
import { goDown, goUp, healthyListing, MINUTE } from "./helpers/watch-fixtures.js";

let svc: PaidService;
let rx: Receiver;
let alerter: Alerter;
const DAY = 86_400_000;

beforeAll(async () => {
  svc = await startPaidService({ routes: productRoutes, env: { ALLOW_PRIVATE_WEBHOOKS: "true" } });
  svc.ctx.clock.set(new Date());
  rx = await startReceiver();
  alerter = startAlerter(svc.ctx, { tickMs: 60_000, random: () => 0.5 });
});
afterAll(async () => {
  await alerter?.stop();
  await rx?.close();
  await svc?.close();
});

let account = 0;
/** A watch bought with a real x402 payment; its receiver path trusts the returned signing secret. */
async function subscribe(path: string, url: string, signals?: string[]) {
  const res = await svc.payingFetch(account++ % 8)(`${svc.url}/api/v1/watch`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ url, webhookUrl: `${rx.url}${path}`, ...(signals ? { signals } : {}) }),
  });
  expect(res.status).toBe(200);
  const w = await body(res);
  rx.trust(path, w.signingSecret);
  return w as { watchId: string; secret: string; signingSecret: string };
}
const statusOf = async (w: { watchId: string; secret: string }) =>
  body(await fetch(`${svc.url}/api/v1/watch/${w.watchId}`, { headers: { authorization: `Bearer ${w.secret}` } }));
const summary = (path: string) => rx.on(path).map((r) => (r.verified ? `${r.payload.signal}:${r.payload.state}` : `unverified:${r.verifyError}`));

describe("alerts of a paid watch", () => {
  it("a flapping endpoint gives signed fired and cleared alerts, visible in the status", async () => {
    const ctx = svc.ctx;
    const l = await healthyListing(ctx);
    const w = await subscribe("/flap", l.url);
    await alerter.runNow();
    expect(await statusOf(w)).toMatchObject({ signalStates: [{ state: "cleared" }, { state: "cleared" }, { state: "cleared" }] });

    // Each phase: three probes in half an hour. The service's hour still holds the other
    // phase's probes, so `zombie` (100% errors over an hour) never fires; `dead` flaps.
    for (const phase of [goDown, goUp, goDown, goUp]) {
      await phase(ctx, l.id);
      await alerter.runNow();
      await alerter.runNow();
    }
    expect(summary("/flap")).toEqual(["dead:fired", "dead:cleared", "dead:fired", "dead:cleared"]);
    expect(rx.on("/flap").map((r) => r.payload.evidence.healthy_30m)).toEqual([0, 3, 0, 3]);

    const s = await statusOf(w);
    expect(s).toMatchObject({ state: "active", alertsRemaining: 96 });
    expect(s.signalStates.map((x: { signal: string; state: string }) => `${x.signal}:${x.state}`)).toEqual([
      "dead:cleared",
      "zombie:cleared",
      "decoy_price_extreme:cleared",
    ]);
    expect(s.deliveries).toHaveLength(4);
    expect(
      s.deliveries.every(
        (d: { status: string; attempts: number; lastResponseCode: number }) => d.status === "delivered" && d.attempts === 1 && d.lastResponseCode === 204,
      ),
    ).toBe(true);
    expect(new Set(s.deliveries.map((d: { webhookId: string }) => d.webhookId))).toEqual(new Set(rx.on("/flap").map((r) => r.id)));
  });

  it("alerts once for a signal that already fires when the watch starts, and records the rest silently", async () => {
    const decoy = await healthyListing(svc.ctx, "5000");
    const w = await subscribe("/decoy", decoy.url, ["decoy_price_extreme", "slow"]);
    await alerter.runNow();
    await alerter.runNow();
    expect(summary("/decoy")).toEqual(["decoy_price_extreme:fired"]);
    expect(rx.on("/decoy")[0]!.payload.evidence).toMatchObject({ price_usdc: 5000, threshold_usdc: 1000 });
    expect((await statusOf(w)).signalStates.map((x: { state: string }) => x.state)).toEqual(["fired", "cleared"]);
  });

  it("keeps an uncatalogued URL unknown until the catalog lists it with evidence", async () => {
    const url = "https://later.example/api/new";
    const w = await subscribe("/later", url, ["dead"]);
    await alerter.runNow();
    expect((await statusOf(w)).signalStates).toEqual([{ signal: "dead", state: "unknown", since: expect.any(String), evidence: { listed: false } }]);
    const id = await seedListing(svc.ctx, { url, service: "Later", provider: "0xlater" });
    await goDown(svc.ctx, id);
    await alerter.runNow();
    expect(summary("/later")).toEqual(["dead:fired"]);
  });

  it("reads unknown on a listing with no probes yet, then cleared without an alert once it has evidence", async () => {
    const url = "https://fresh.example/api";
    const id = await seedListing(svc.ctx, { url, service: "Fresh", provider: "0xfresh" });
    await recompute(svc.ctx);
    const w = await subscribe("/fresh", url, ["dead", "slow"]);
    await alerter.runNow();
    const states = async () => (await statusOf(w)).signalStates.map((x: { signal: string; state: string }) => `${x.signal}:${x.state}`);
    expect(await states()).toEqual(["dead:unknown", "slow:unknown"]);
    // One probe is a hint (confidence 0.2), not enough to say cleared.
    await seedProbes(svc.ctx, id, [{ ago: 1000 }]);
    await recompute(svc.ctx);
    await alerter.runNow();
    expect(await states()).toEqual(["dead:unknown", "slow:unknown"]);
    await seedProbes(svc.ctx, id, [{ ago: 2 * MINUTE }, { ago: 3 * MINUTE }]);
    await recompute(svc.ctx);
    await alerter.runNow();
    expect(await states()).toEqual(["dead:cleared", "slow:cleared"]);
    expect(summary("/fresh")).toEqual([]);
  });

  it("does not fire zombie when one endpoint of a 2-endpoint service failed and the other was not probed yet (issue 23)", async () => {
    const [a, b] = ["https://halfdead.example/a", "https://halfdead.example/b"];
    const ida = await seedListing(svc.ctx, { url: a, service: "Halfdead", provider: "0xhalfdead" });
    const idb = await seedListing(svc.ctx, { url: b, service: "Halfdead", provider: "0xhalfdead" });
    const w = await subscribe("/halfdead", a, ["zombie"]);
    const failed = [1, 5, 10].map((m) => ({ ago: m * MINUTE, healthy: false }));
    await seedProbes(svc.ctx, ida, failed);
    await recompute(svc.ctx);
    await alerter.runNow();
    expect((await statusOf(w)).signalStates[0]).toMatchObject({ state: "unknown", evidence: { service_endpoints: 2, failed_endpoints: 1 } });
    // 13 s later the other endpoint answers: before, this cleared the false zombie (two alerts spent).
    svc.ctx.clock.advance(13_000);
    await seedProbes(svc.ctx, idb, [{ ago: 1000 }]);
    await recompute(svc.ctx);
    await alerter.runNow();
    expect((await statusOf(w)).signalStates[0]).toMatchObject({ state: "cleared" });
    expect(summary("/halfdead")).toEqual([]);

    // An hour on, every endpoint failed on its own probes: a zombie, alerted once.
    svc.ctx.clock.advance(61 * MINUTE);
    for (const id of [ida, idb]) await seedProbes(svc.ctx, id, failed);
    await recompute(svc.ctx);
    await alerter.runNow();
    expect(summary("/halfdead")).toEqual(["zombie:fired"]);
    expect((await statusOf(w)).alertsRemaining).toBe(99);
  });

  it("goes unknown when the evidence runs out, silently, and alerts the clear once evidence returns", async () => {
    const l = await healthyListing(svc.ctx);
    const w = await subscribe("/slow", l.url, ["slow"]);
    await alerter.runNow();
    await seedProbes(
      svc.ctx,
      l.id,
      [1, 2, 3].map((m) => ({ ago: m * MINUTE, latency: 5000 })),
    );
    await recompute(svc.ctx);
    await alerter.runNow();
    expect(summary("/slow")).toEqual(["slow:fired"]);
    // An hour without probes: no latency to judge, so unknown, not cleared.
    svc.ctx.clock.advance(61 * MINUTE);
    await recompute(svc.ctx);
    await alerter.runNow();
    expect((await statusOf(w)).signalStates[0]).toMatchObject({ state: "unknown", evidence: { avg_latency_1h_ms: null, probes_1h: 0 } });
    expect(summary("/slow")).toEqual(["slow:fired"]);
    await seedProbes(
      svc.ctx,
      l.id,
      [1, 2, 3].map((m) => ({ ago: m * MINUTE })),
    );
    await recompute(svc.ctx);
    await alerter.runNow();
    expect(summary("/slow")).toEqual(["slow:fired", "slow:cleared"]);
  });

  it("records an alert past the quota as skipped_quota_exceeded and sends nothing", async () => {
    const l = await healthyListing(svc.ctx);
    const w = await subscribe("/quota", l.url, ["dead"]);
    await alerter.runNow();
    await svc.ctx.db.db.updateTable("watches").set({ alerts_remaining: 1 }).where("id", "=", w.watchId).execute();
    await goDown(svc.ctx, l.id);
    await alerter.runNow();
    await goUp(svc.ctx, l.id);
    await alerter.runNow();
    expect(summary("/quota")).toEqual(["dead:fired"]);
    const s = await statusOf(w);
    expect(s.alertsRemaining).toBe(0);
    expect(s.deliveries.map((d: { state: string; status: string; attempts: number }) => [d.state, d.status, d.attempts])).toEqual([
      ["cleared", "skipped_quota_exceeded", 0],
      ["fired", "delivered", 1],
    ]);
    expect(s.signalStates[0]).toMatchObject({ state: "cleared" });
  });

  it("stops at expiry: waiting alerts are closed and no new one is raised", async () => {
    rx.answer("/expiry", () => ({ status: 500 }));
    const l = await healthyListing(svc.ctx);
    const w = await subscribe("/expiry", l.url, ["dead"]);
    await alerter.runNow();
    await goDown(svc.ctx, l.id);
    await alerter.runNow();
    svc.ctx.clock.advance(30 * DAY);
    expect(await alerter.runNow()).toMatchObject({ attempted: 0 });
    await goUp(svc.ctx, l.id);
    await alerter.runNow();
    const s = await statusOf(w);
    expect(s.state).toBe("expired");
    expect(s.deliveries).toEqual([
      expect.objectContaining({ state: "fired", status: "failed", attempts: 1, lastResponseCode: 500, lastError: "cancelled: the watch expired" }),
    ]);
    expect(rx.on("/expiry")).toHaveLength(1);
  });

  it("stops after unsubscribe and keeps the history", async () => {
    const l = await healthyListing(svc.ctx);
    const w = await subscribe("/unsub", l.url, ["dead"]);
    await alerter.runNow();
    await goDown(svc.ctx, l.id);
    await alerter.runNow();
    const res = await fetch(`${svc.url}/api/v1/watch/${w.watchId}`, { method: "DELETE", headers: { "x-watch-secret": w.secret } });
    expect(await body(res)).toMatchObject({ state: "unsubscribed", deliveries: [{ state: "fired", status: "delivered" }] });
    await goUp(svc.ctx, l.id);
    await alerter.runNow();
    expect(summary("/unsub")).toEqual(["dead:fired"]);
    expect((await statusOf(w)).deliveries).toHaveLength(1);
  });

  it("ignores a watch whose payment never settled", async () => {
    const l = await healthyListing(svc.ctx);
    const payment = await svc.ctx.db.db
      .insertInto("payments")
      .values({ authorization_key: "test:unsettled", request_id: "r", route: "watch", network: "eip155:84532", amount_atomic: "10000", status: "failed" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const deps = { db: svc.ctx.db.db, clock: svc.ctx.clock, rules: { allowPrivate: true } };
    const w = await createWatch(deps, { url: l.url, webhookUrl: `${rx.url}/unpaid`, signals: ["dead"], paymentId: payment.id });
    expect(w.watchId).toBe(payment.id);
    expect((await fetch(`${svc.url}/api/v1/watch/${w.watchId}`, { headers: { authorization: `Bearer ${w.secret}` } })).status).toBe(404);
    await goDown(svc.ctx, l.id);
    await alerter.runNow();
    expect(rx.on("/unpaid")).toHaveLength(0);
  });

  it("ALLOW_PRIVATE_WEBHOOKS lets loopback and http through, never private ranges or metadata", async () => {
    for (const hook of ["http://10.1.2.3/h", "http://169.254.169.254/latest/meta-data", "http://[fd00:ec2::254]/", "http://192.168.0.10/h"]) {
      const res = await refusedInput(`${svc.url}/api/v1/watch`, { url: "https://a.example/x", webhookUrl: hook });
      expect(res.status, hook).toBe(400);
    }
    const loopback = await subscribe("/loopback", "https://a.example/x");
    expect(loopback.watchId).toMatch(/^[0-9a-f-]{36}$/);
  });
});
