import type { Devnet } from "../../src/chain/devnet.js";
import { createLocalFacilitator } from "../../src/chain/facilitator.js";
import { startDemoFleet, type DemoFleet } from "../../src/demo/index.js";
import { MINUTE } from "../../src/services/signals/constants.js";
import { recomputeSnapshots, recomputeVerdicts } from "../../src/services/evidence/index.js";
import { startIngester } from "./start-ingester.js";
import { startProber } from "./start-prober.js";
import type { TestContext } from "./context.js";

/**
 * The demo fleet on `devnet`, ingested into `ctx` and probed for one hour at the default
 * 10-minute cadence on the context's clock (set to now first: payments are signed in real time),
 * with verdicts recomputed, so every demo endpoint carries the warnings an hour of probing gives.
 * The fleet runs on the context's clock too, so its quote traps switch terms 15 minutes in.
 * The context needs ALLOW_PRIVATE_TARGETS=true: the fleet listens on loopback.
 */
export async function startProbedDemoFleet(ctx: TestContext, devnet: Devnet): Promise<DemoFleet> {
  ctx.clock.set(new Date());
  const fleet = await startDemoFleet({
    log: ctx.log,
    facilitator: createLocalFacilitator(devnet),
    network: devnet.network,
    payTo: devnet.payTo,
    asset: { address: devnet.usdcAddress, name: "USDC", version: "2" },
    slowMs: 2100,
    flapPeriodMs: 24 * 3_600_000,
    clock: ctx.clock,
  });
  try {
    const ingester = startIngester(ctx, [fleet.catalogUrl]);
    await ingester.runNow();
    await ingester.stop();
    const prober = startProber(ctx, { runAtStart: false });
    // A cycle every 2 minutes for an hour, so each listing is probed at its own slot as the real
    // prober's ticks do.
    for (let step = 0; step <= 30; step++) {
      if (step > 0) ctx.clock.advance(2 * MINUTE);
      await prober.runNow();
    }
    await prober.stop();
    await recomputeSnapshots(ctx);
    await recomputeVerdicts(ctx.db, ctx.clock.now());
    return fleet;
  } catch (err) {
    await fleet.stop();
    throw err;
  }
}
