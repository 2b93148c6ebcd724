import { Readable } from "node:stream";
import { createLocalFacilitator } from "../../src/chain/facilitator.js";
import { startDemoFleet, type DemoEndpoint, type DemoFleet } from "../../src/demo/index.js";
import { ingestOptions, runIngestCycle } from "../../src/services/catalog/index.js";
import { importProbes } from "../../src/services/catalog/probe-history/import-probes.js";
import { recordDailyFlags } from "../../src/services/delist/record-flags.js";
import { DAY, MINUTE } from "../../src/services/signals/constants.js";
import { recomputeSnapshots, recomputeVerdicts } from "../../src/services/evidence/index.js";
import { startProber } from "../helpers/start-prober.js";
import { startLookout, type LookoutService } from "./lookout-service.js";

export interface DemoScenario {
  svc: LookoutService;
  fleet: DemoFleet;
  /** The healthy demo endpoint with a week of imported history: Skycast's current weather. */
  healthy: DemoEndpoint;
  stop(): Promise<void>;
}

/** A week of probes every 10 minutes, in the history format `lookout probes import` reads. */
function week(e: DemoEndpoint, now: number): string[] {
  return Array.from({ length: (7 * DAY) / (10 * MINUTE) }, (_, i) => {
    const at = new Date(now - 60_000 - i * 10 * MINUTE).toISOString();
    const base = { url: e.url, method: e.method, at };
    if (e.kind === "dead_refused") return JSON.stringify({ ...base, network_error: "connect_refused", latency_ms: null, price_usdc: null });
    if (e.kind === "dead_5xx" || e.kind === "zombie") return JSON.stringify({ ...base, status: 500 + (i % 4), latency_ms: 40, price_usdc: null });
    return JSON.stringify({ ...base, status: 402, latency_ms: 90 + (i % 12) * 10, price_usdc: e.price });
  });
}

const WITH_HISTORY = new Set(["dead_5xx", "dead_refused", "zombie", "ghost", "never_paid"]);

/**
 * The acceptance scenario: the service and the demo fleet on one devnet; the catalog ingested
 * 31 days ago (so ghost listings are old enough); a week of history imported for the healthy
 * Skycast endpoint and for the dead, zombie and ghost listings; then one real probe cycle of
 * every listing, the verdicts and today's delist flags, as the prober would leave them.
 */
export async function startDemoScenario(): Promise<DemoScenario> {
  const svc = await startLookout({ env: { ALLOW_PRIVATE_TARGETS: "true" } });
  let fleet: DemoFleet | undefined;
  try {
    const ctx = svc.ctx;
    fleet = await startDemoFleet({
      log: ctx.log,
      facilitator: createLocalFacilitator(svc.devnet),
      network: svc.devnet.network,
      // Skycast Labs is paid to the devnet's funded demo merchant, as in `npm start`.
      payTo: svc.devnet.demoMerchant.address,
      asset: { address: svc.devnet.usdcAddress, name: "USDC", version: "2" },
      slowMs: 50,
    });
    const healthy = fleet.endpoints.find((e) => e.kind === "healthy" && e.url.endsWith("/weather/current"))!;
    const now = new Date();
    ctx.clock.set(new Date(now.getTime() - 31 * DAY));
    await runIngestCycle({ db: ctx.db.db, clock: ctx.clock, log: ctx.log }, [fleet.catalogUrl], ingestOptions(300));
    ctx.clock.set(now);

    const lines = fleet.endpoints.filter((e) => e === healthy || WITH_HISTORY.has(e.kind)).flatMap((e) => week(e, now.getTime()));
    const report = await importProbes(ctx.db.db, ctx.clock, Readable.from(lines.map((l) => `${l}\n`)));
    if (!report.committed || report.badLines > 0) throw new Error(`history import failed: ${JSON.stringify(report.bad)}`);

    await ctx.db.db
      .updateTable("listings")
      .set({ next_probe_at: new Date(now.getTime() - 1000) })
      .execute();
    const prober = startProber(ctx, { tickMs: 3_600_000, runAtStart: false });
    try {
      await prober.runNow();
    } finally {
      await prober.stop();
    }
    await recomputeSnapshots(ctx);
    await recomputeVerdicts(ctx.db, ctx.clock.now());
    await recordDailyFlags(ctx);
    const f = fleet;
    return {
      svc,
      fleet: f,
      healthy,
      stop: async () => {
        await f.stop();
        await svc.close();
      },
    };
  } catch (err) {
    await fleet?.stop();
    await svc.close();
    throw err;
  }
}
