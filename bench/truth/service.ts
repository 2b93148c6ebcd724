import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { collectDefaultMetrics, Registry } from "prom-client";
import { anvilAccount } from "../../src/chain/devnet-accounts.js";
import { startDevnet } from "../../src/chain/devnet.js";
import { devnetRail, type PaymentRail } from "../../src/chain/payment-rail.js";
import { loadConfig } from "../../src/config.js";
import { createAppContext, Readiness, type AppContext } from "../../src/context.js";
import { startDemoFleet, type DemoFleet } from "../../src/demo/index.js";
import { createApp } from "../../src/http/app.js";
import { createAppGate } from "../../src/http/payment/app-gate.js";
import { forensicsRoute } from "../../src/http/routes/preflight/forensics.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { listen, type RunningServer } from "../../src/http/serve.js";
import { systemClock } from "../../src/lib/clock.js";
import { startSchedules } from "../../src/workers/schedules.js";
import type { Periodic } from "../../src/workers/periodic.js";
import type { BenchDb } from "../lib/bench-db.js";
import { unpaid } from "../lib/bench-service.js";
import { countingLogger } from "./log.js";

/** The service's cadences in this bench: the default probe interval; catalogs polled every minute (first sight is where timing starts). */
export const PROBE_INTERVAL_SECONDS = 600;
export const CATALOG_POLL_SECONDS = 60;

export interface TruthService {
  ctx: AppContext;
  rail: PaymentRail;
  demo: DemoFleet;
  /** Base URL of the API; `/bench/forensics` is forensics without the payment gate. */
  url: string;
  /** Starts every role's tasks (api, ingester, prober, alerter) as `npm start` does. */
  /** Error lines the service logged (level error and above), the first few kept. */
  errors: { count: number; first: string[] };
  startRoles(catalogUrls: string[]): void;
  stopRoles(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The real service in this process, over `db`: config from the same loader as `npm start`, the
 * service bag, the devnet payment rail, the demo fleet on it, the HTTP API with the product
 * routes behind the payment gate. Roles start only when the bench has laid out its fleet.
 */
export async function startTruthService(db: BenchDb): Promise<TruthService> {
  const dataDir = mkdtempSync(join(tmpdir(), "lookout-truth-"));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    CATALOG_URLS: "http://127.0.0.1:9/set-by-bench",
    ALLOW_PRIVATE_TARGETS: "true",
    PROBE_INTERVAL_SECONDS: String(PROBE_INTERVAL_SECONDS),
    CATALOG_POLL_SECONDS: String(CATALOG_POLL_SECONDS),
  });
  const { log, errors } = countingLogger();
  const metrics = new Registry();
  collectDefaultMetrics({ register: metrics });
  const readiness = new Readiness();
  readiness.markMigrated();
  const ctx = createAppContext({ config, db, clock: systemClock, log, metrics, readiness });
  const devnet = await startDevnet({ log });
  const rail = devnetRail(devnet);
  const demo = await startDemoFleet({ log, facilitator: rail.facilitator, network: rail.network, asset: rail.asset, payTo: anvilAccount(21).address });
  const routes = [...productRoutes, unpaid(forensicsRoute, "/bench/forensics")];
  const app = createApp({ ctx, routes, gate: await createAppGate(ctx, rail, routes) });
  const server: RunningServer = await listen(app, "127.0.0.1", 0);
  const tasks: Array<Periodic<unknown>> = [];
  const stopRoles = () => Promise.all(tasks.map((t) => t.stop())).then(() => undefined);
  return {
    ctx,
    rail,
    demo,
    url: server.url,
    errors,
    startRoles(catalogUrls) {
      for (const role of ["api", "ingester", "prober", "alerter"] as const) {
        for (const { task } of startSchedules(role, { ctx, rail, catalogUrls })) tasks.push(task);
      }
      void ctx.services.warm();
    },
    stopRoles,
    async close() {
      await stopRoles();
      await server.close(1000);
      await ctx.services.close();
      await demo.stop();
      await devnet.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
