import { sql } from "kysely";
import { pino } from "pino";
import { Registry } from "prom-client";
import { chainReader } from "../../src/chain/chain-reader.js";
import { startDevnet, type Devnet } from "../../src/chain/devnet.js";
import { createLocalFacilitator } from "../../src/chain/facilitator.js";
import { loadConfig } from "../../src/config.js";
import { createAppContext, Readiness, type AppContext } from "../../src/context.js";
import { startDemoFleet, type DemoFleet } from "../../src/demo/index.js";
import { createCanaryAgent } from "../../src/canary/index.js";
import { createCanary, demoSourceEntry } from "../../src/services/index.js";
import { recomputeVerdicts } from "../../src/services/evidence/index.js";
import { systemClock } from "../../src/lib/clock.js";
import { startIngester } from "../../test/helpers/start-ingester.js";
import { startProber } from "../../test/helpers/start-prober.js";
import type { BenchDb } from "../lib/bench-db.js";

/** The demo fleet on a devnet, ingested and probed once in real time, and a paid checker for it. */
export interface CanaryStack {
  ctx: AppContext;
  devnet: Devnet;
  fleet: DemoFleet;
  canary(limits: { budgetUsdcPerDay: string; intervalHours: number }): { tick(): Promise<{ checked: number }>; close(): Promise<void> };
  /** Ingests the demo catalog and probes what is due once, then recomputes verdicts: new listings are judged. */
  refresh(): Promise<void>;
  stop(): Promise<void>;
}

export async function startCanaryStack(db: BenchDb): Promise<CanaryStack> {
  const log = pino({ level: "warn" }, pino.destination(2));
  const devnet = await startDevnet({ log });
  const config = loadConfig({ DATA_DIR: "memory://", ALLOW_PRIVATE_TARGETS: "true", PROBE_INTERVAL_SECONDS: "600", CATALOG_URLS: "http://unused.test/d" });
  const ctx = createAppContext({ config, db, clock: systemClock, log, metrics: new Registry(), readiness: new Readiness() });
  const asset = { address: devnet.usdcAddress, name: "USDC", version: "2" };
  const fleet = await startDemoFleet({ log, facilitator: createLocalFacilitator(devnet), network: devnet.network, payTo: devnet.payTo, asset });
  async function refresh() {
    // The demo catalog is due again now, whatever its poll cadence says.
    await sql`update catalog_sources set next_poll_at = now()`.execute(db.db);
    const ingester = startIngester(ctx, [demoSourceEntry(fleet.catalogUrl)]);
    await ingester.runNow();
    await ingester.stop();
    const prober = startProber(ctx, { runAtStart: false, tickMs: 3_600_000 });
    await prober.runNow();
    await prober.stop();
    await recomputeVerdicts(db, new Date());
  }
  await refresh();
  return {
    refresh,
    ctx,
    devnet,
    fleet,
    canary(limits) {
      const agent = createCanaryAgent(ctx.services, {
        privateKey: devnet.canary.privateKey,
        network: devnet.network,
        publicBaseUrl: config.publicBaseUrl,
        allowPrivate: true,
      });
      const c = createCanary({
        db,
        clock: systemClock,
        log,
        chain: chainReader(devnet.publicClient),
        canary: { maxPriceUsdc: "0.01", hostChecksPerDay: 100_000, ...limits },
        network: devnet.network,
        payer: agent.payer,
      });
      return { tick: () => c.tick(), close: () => agent.close() };
    },
    async stop() {
      await fleet.stop();
      await ctx.services.close();
      await devnet.stop();
    },
  };
}
