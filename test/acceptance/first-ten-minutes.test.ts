import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalFacilitator } from "../../src/chain/facilitator.js";
import { loadConfig } from "../../src/config.js";
import { startDemoFleet, type DemoFleet } from "../../src/demo/index.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { MINUTE } from "../../src/services/signals/constants.js";
import { startAlerter, type Alerter } from "../helpers/start-alerter.js";
import { startIngester } from "../helpers/start-ingester.js";
import { startProber, type ProberHandle } from "../helpers/start-prober.js";
import { verdictsTask } from "../../src/workers/verdicts.js";
import { body } from "../helpers/http.js";
import { startPaidService, type PaidService } from "../helpers/paid-service.js";
import { x402PayingFetch } from "../helpers/x402-payer.js";
import { startReceiver, type Receiver } from "../watch/helpers/receiver.js";

/**
 * docs/demo-fleet.md, "The first ten minutes", on the injected clock: `npm start`'s demo-mode
 * cadence (loadConfig({}): probes every 30 s, loopback webhooks) against the demo fleet, with the
 * prober, verdict recompute and alerter ticking as the roles do. Records when a newcomer sees
 * dead, zombie, a watch alert and a certificate.
 */
const demo = loadConfig({});
const SECOND = 1000;
const STEP_MS = 10 * SECOND;
const json = { "content-type": "application/json" };
let svc: PaidService;
let fleet: DemoFleet;
let rx: Receiver;
let prober: ProberHandle;
let alerter: Alerter;

beforeAll(async () => {
  svc = await startPaidService({
    routes: productRoutes,
    env: {
      ALLOW_PRIVATE_TARGETS: String(demo.allowPrivateTargets),
      ALLOW_PRIVATE_WEBHOOKS: String(demo.allowPrivateWebhooks),
      PROBE_INTERVAL_SECONDS: String(demo.probeIntervalSeconds),
    },
  });
  svc.ctx.clock.set(new Date()); // payments are signed in real time
  fleet = await startDemoFleet({
    log: svc.ctx.log,
    facilitator: createLocalFacilitator(svc.devnet),
    network: svc.devnet.network,
    payTo: svc.devnet.demoMerchant.address,
    asset: { address: svc.devnet.usdcAddress, name: "USDC", version: "2" },
    slowMs: 2100,
    clock: svc.ctx.clock,
  });
  rx = await startReceiver();
  const ingester = startIngester(svc.ctx, [fleet.catalogUrl]);
  await ingester.runNow();
  await ingester.stop();
  prober = startProber(svc.ctx, { runAtStart: false, tickMs: 3_600_000 });
  alerter = startAlerter(svc.ctx, { tickMs: 3_600_000 });
}, 120_000);
afterAll(async () => {
  await prober?.stop();
  await alerter?.stop();
  await rx?.close();
  await fleet?.stop();
  await svc?.close();
});

describe("the first ten minutes of npm start (demo mode)", () => {
  it("shows dead, zombie, a watch alert and a verified certificate within about ten minutes", async () => {
    expect(demo).toMatchObject({ demoMode: true, probeIntervalSeconds: 30, allowPrivateWebhooks: true });
    const ctx = svc.ctx;
    const dead = fleet.endpoints.find((e) => e.kind === "dead_5xx")!;
    const zombies = fleet.endpoints.filter((e) => e.kind === "zombie");
    const skycast = fleet.endpoints.find((e) => e.kind === "healthy" && e.url.endsWith("/weather/current"))!;
    // Minute 0: a watch on the dead endpoint, delivered to a receiver on loopback (paid, 0.01 USDC).
    const watch = await svc.payingFetch(2)(`${svc.url}/api/v1/watch`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ url: dead.url, webhookUrl: `${rx.url}/tour`, signals: ["dead"] }),
    });
    expect(watch.status, JSON.stringify(await body(watch.clone()))).toBe(200);

    const warningsOf = async (url: string) =>
      (
        await ctx.db.db
          .selectFrom("signal_snapshots as s")
          .innerJoin("listings as l", "l.id", "s.listing_id")
          .select("s.warnings")
          .where("l.url", "=", url)
          .where("l.is_active", "=", true)
          .executeTakeFirst()
      )?.warnings ?? [];
    const start = ctx.clock.now().getTime();
    const seen: Record<"dead" | "zombie" | "alert" | "certificate", number | undefined> = {
      dead: undefined,
      zombie: undefined,
      alert: undefined,
      certificate: undefined,
    };
    const verdicts = verdictsTask(ctx);
    let cert: any;
    for (let t = 0; t <= 15 * MINUTE && seen.certificate === undefined; t += STEP_MS) {
      if (t > 0) ctx.clock.advance(STEP_MS);
      await prober.runNow();
      if (t % (30 * SECOND) === 0) await verdicts.tick(new AbortController().signal);
      await alerter.runNow();
      const at = ctx.clock.now().getTime() - start;
      if (seen.dead === undefined && (await warningsOf(dead.url)).includes("dead")) seen.dead = at;
      if (seen.zombie === undefined && (await Promise.all(zombies.map((z) => warningsOf(z.url)))).every((w) => w.includes("zombie"))) seen.zombie = at;
      if (seen.alert === undefined && rx.on("/tour").length > 0) seen.alert = at;
      // The merchant asks for its certificate each minute from minute 5; a refusal (422) is free.
      if (at >= 5 * MINUTE && at % MINUTE === 0) {
        const res = await x402PayingFetch(svc.devnet.demoMerchant.privateKey, { spendCapUsd: "$5" })(`${svc.url}/api/v1/verified`, {
          method: "POST",
          headers: json,
          body: JSON.stringify({ url: skycast.url }),
        });
        if (res.status === 200) {
          seen.certificate = at;
          cert = await body(res);
        } else expect(res.status).toBe(422);
      }
    }
    // What the tour promises, with the measured minutes in every failure message.
    const summary = Object.entries(seen)
      .map(([k, v]) => `${k} ${v === undefined ? "never" : (v / MINUTE).toFixed(1)}`)
      .join(", ");
    expect(seen.dead, summary).toBeLessThanOrEqual(3 * MINUTE);
    expect(seen.zombie, summary).toBeLessThanOrEqual(3 * MINUTE);
    expect(seen.alert, summary).toBeLessThanOrEqual(seen.dead! + STEP_MS);
    expect(JSON.parse(rx.on("/tour")[0]!.body)).toMatchObject({ signal: "dead", state: "fired" });
    expect(seen.certificate, summary).toBeLessThanOrEqual(12 * MINUTE);
    expect(cert).toMatchObject({ verified: true, url: skycast.url, payTo: svc.devnet.demoMerchant.address });
  }, 600_000);
});
