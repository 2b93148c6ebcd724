import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { AppContext } from "../context.js";
import type { LookupFunction } from "../lib/ssrf-guard.js";
import { ALERTER_TICK_MS } from "../services/watch/constants.js";
import { runAlerterTick, type AlerterTickSummary } from "../services/watch/alerter-tick.js";
import { watchMetrics } from "../services/watch/metrics.js";
import { createWebhookDispatcher } from "../services/watch/webhook-dispatcher.js";
import { startPeriodic } from "./periodic.js";

export type { AlerterTickSummary };

export interface AlerterOptions {
  /** Pause between ticks (default ALERTER_TICK_MS). */
  tickMs?: number;
  /** Lease owner name (default host:pid:random). */
  owner?: string;
  /** Name resolution at connect time (tests point names at chosen addresses). */
  lookup?: LookupFunction;
  /** Jitter source for retry delays. */
  random?: () => number;
  /** Delivery attempts in flight at once. */
  concurrency?: number;
  /** Time-out of one delivery attempt (default DELIVERY_TIMEOUT_MS; tests of hanging receivers shorten it). */
  deliveryTimeoutMs?: number;
}

export interface Alerter {
  /** Runs a tick that starts after this call (waiting for one in progress) and returns its summary. */
  runNow(): Promise<AlerterTickSummary>;
  /** Claims nothing more, lets attempts in flight finish and be recorded, closes connections. */
  stop(): Promise<void>;
}

/**
 * The alerter role: every few seconds, turn signal changes of watched endpoints into alerts in
 * the outbox and deliver what is due. Several alerters may share one database.
 */
export function startAlerter(ctx: AppContext, opts: AlerterOptions = {}): Alerter {
  const log = ctx.log.child({ worker: "alerter" });
  const dispatcher = createWebhookDispatcher({ allowPrivate: ctx.config.allowPrivateWebhooks, lookup: opts.lookup });
  const deps = {
    db: ctx.db.db,
    clock: ctx.clock,
    log,
    metrics: watchMetrics(ctx.metrics),
    transport: { dispatcher, allowPrivate: ctx.config.allowPrivateWebhooks, wallClock: () => new Date(), timeoutMs: opts.deliveryTimeoutMs },
    owner: opts.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    random: opts.random,
    concurrency: opts.concurrency,
  };
  let busy = false;
  let last: AlerterTickSummary | undefined;
  const periodic = startPeriodic(
    "alerter",
    opts.tickMs ?? ALERTER_TICK_MS,
    async (signal) => {
      busy = true;
      try {
        last = await runAlerterTick(deps, signal);
      } finally {
        busy = false;
      }
    },
    log,
  );
  return {
    async runNow() {
      if (busy) await periodic.runNow();
      last = undefined;
      await periodic.runNow();
      if (!last) throw new Error("the alerter tick failed; see the log");
      return last;
    },
    async stop() {
      await periodic.stop();
      await dispatcher.close();
    },
  };
}
