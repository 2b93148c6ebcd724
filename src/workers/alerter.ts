import type { AppContext } from "../context.js";
import { ALERTER_TICK_MS, type AlerterTickSummary, type AlerterOptions as TickOptions } from "../services/index.js";
import { startTask, type Task } from "./periodic.js";

export type { AlerterTickSummary };

export interface AlerterOptions extends Omit<TickOptions, "log"> {
  /** Pause between ticks (default ALERTER_TICK_MS). */
  tickMs?: number;
}

export interface Alerter {
  /** Runs a tick that starts after this call (waiting for one in progress) and returns its summary. */
  runNow(): Promise<AlerterTickSummary>;
  /** Claims nothing more, lets attempts in flight finish and be recorded, closes connections. */
  stop(): Promise<void>;
}

/** The alerter's tick as a task: evaluation and delivery run in one tick (evaluate, then send). */
export function alerterTask(ctx: AppContext, opts: AlerterOptions = {}): Task<AlerterTickSummary> {
  return ctx.services.watch.alerter({ ...opts, log: ctx.log.child({ worker: "alerter" }) });
}

/**
 * The alerter role: every few seconds, turn signal changes of watched endpoints into alerts in
 * the outbox and deliver what is due. Several alerters may share one database.
 */
export function startAlerter(ctx: AppContext, opts: AlerterOptions = {}): Alerter {
  const log = ctx.log.child({ worker: "alerter" });
  const task = startTask("alerter", opts.tickMs ?? ALERTER_TICK_MS, alerterTask(ctx, opts), log);
  return {
    runNow: () =>
      task.runNext().catch(() => {
        throw new Error("the alerter tick failed; see the log");
      }),
    stop: () => task.stop(),
  };
}
