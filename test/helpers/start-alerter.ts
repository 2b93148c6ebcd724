import type { AppContext } from "../../src/context.js";
import { ALERTER_TICK_MS, type AlerterTickSummary, type AlerterOptions as TickOptions } from "../../src/services/index.js";
import { startTask } from "../../src/workers/periodic.js";

export interface AlerterOptions extends Omit<TickOptions, "log"> {
  /** Pause between evaluations and between delivery polls (default ALERTER_TICK_MS and the delivery poll). */
  tickMs?: number;
}

export interface Alerter {
  /** An evaluation that starts after this call, then every due delivery sent and recorded; what both did. */
  runNow(): Promise<AlerterTickSummary>;
  /** Claims nothing more, lets attempts in flight finish and be recorded, closes connections. */
  stop(): Promise<void>;
}

/**
 * The alerter role in one call (tests, benchmarks): the evaluation and the delivery loop, each on
 * its own schedule as in src/workers/schedules.ts, over one delivery pool. Several alerters may share one database.
 */
export function startAlerter(ctx: AppContext, opts: AlerterOptions = {}): Alerter {
  const log = ctx.log.child({ worker: "alerter" });
  const a = ctx.services.watch.alerter({ ...opts, log });
  const evaluation = startTask("alerter", opts.tickMs ?? ALERTER_TICK_MS, { tick: a.evaluate }, log);
  const delivery = startTask("webhook delivery", opts.tickMs ?? ctx.services.watch.deliveryPollMs, { tick: a.deliver, abort: a.abort, close: a.close }, log);
  return {
    async runNow() {
      const evaluated = await evaluation.runNext().catch(() => {
        throw new Error("the alerter evaluation failed; see the log");
      });
      return { ...evaluated, ...(await a.settle()) };
    },
    stop: async () => {
      await evaluation.stop();
      await delivery.stop();
    },
  };
}
