import { createCanaryAgent } from "../canary/index.js";
import type { AppContext } from "../context.js";
import { createCanary, type ChainReader } from "../services/index.js";
import type { Task } from "./periodic.js";

/** Due listings are read every few seconds: the cadence per listing is CANARY_INTERVAL_HOURS, not this. */
export const CANARY_TICK_MS = 5_000;

/**
 * The paid checker's tick (decision 0051): open checks resolved from the chain, then due listings
 * paid and judged. Several canary processes may run: the budget and each listing's interval are
 * held in the database under one lock, and a check is claimed by opening it.
 */
export function canaryTask(ctx: AppContext, chain: ChainReader, privateKey: `0x${string}`): Task<void> {
  const log = ctx.log.child({ worker: "canary" });
  const { config } = ctx;
  const agent = createCanaryAgent(ctx.services, {
    privateKey,
    network: config.network,
    publicBaseUrl: config.publicBaseUrl,
    allowPrivate: config.allowPrivateTargets,
  });
  const canary = createCanary({ db: ctx.db, clock: ctx.clock, log, chain, canary: config.canary, network: config.network, payer: agent.payer });
  const { budgetUsdcPerDay, maxPriceUsdc, intervalHours, hostChecksPerDay } = config.canary;
  log.info({ wallet: agent.address, budgetUsdcPerDay, maxPriceUsdc, intervalHours, hostChecksPerDay }, "paid checker on");
  return {
    async tick() {
      const { checked, reconciled } = await canary.tick();
      if (checked + reconciled > 0) log.debug({ checked, reconciled }, "canary tick");
    },
    close: () => agent.close(),
  };
}
