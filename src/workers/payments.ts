import type { AppContext } from "../context.js";
import type { ChainReader } from "../services/index.js";
import type { Task } from "./periodic.js";

export const RECONCILE_INTERVAL_MS = 30_000;
/** Longer than any answer plus a settlement time-out, so a request still running is left alone. */
export const RECONCILE_GRACE_MS = 120_000;

/**
 * Every API process reconciles unfinished payments from the chain. Several may run at once: each
 * move names the state and request it read, so a row moves once.
 */
export function paymentReconcilerTask(ctx: AppContext, chain: ChainReader): Task<void> {
  const log = ctx.log.child({ worker: "payments" });
  return {
    async tick() {
      const moved = await ctx.services.payments.reconcile(chain, RECONCILE_GRACE_MS);
      if (moved.settled + moved.released + moved.failed > 0) log.info(moved, "unfinished payments resolved from the chain");
    },
  };
}
