import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Registry } from "prom-client";
import type { DbHandle } from "../../db/client.js";
import type { Clock } from "../../lib/clock.js";
import type { Logger } from "../../lib/log.js";
import type { LookupFunction } from "../../lib/ssrf-guard.js";
import { runEvaluation } from "./alerter-tick.js";
import { DELIVERY_POLL_MS } from "./constants.js";
import { createWatch, type CreateWatchInput } from "./create-watch.js";
import { createDeliveryPool, type DeliveryPool } from "./delivery-pool.js";
import { watchMetrics } from "./metrics.js";
import { createWebhookDispatcher } from "./webhook-dispatcher.js";
import { unsubscribeWatch, watchStatus } from "./watch-status.js";
import { webhookUrlProblem, type WebhookRules } from "./webhook-url.js";

export interface AlerterOptions {
  log: Logger;
  /** Lease owner name (default host:pid:random). */
  owner?: string;
  /** Name resolution at connect time (tests point names at chosen addresses). */
  lookup?: LookupFunction;
  /** Jitter source for retry delays. */
  random?: () => number;
  /** Delivery attempts in flight at once (all receiver hosts). */
  concurrency?: number;
  /** Delivery attempts in flight to one receiver host. */
  perHost?: number;
  /** Delivery attempts in flight for one customer's watches. */
  perCustomer?: number;
  /** Attempts started per receiver host: burst and steady rate. */
  hostRate?: { capacity: number; perSecond: number };
  /** Time-out of one delivery attempt (default DELIVERY_TIMEOUT_MS). */
  deliveryTimeoutMs?: number;
}

export interface WatchDeps {
  db: Pick<DbHandle, "db" | "soleWriter">;
  clock: Clock;
  /** Where the alerter registers its series. */
  metrics: Registry;
  rules: WebhookRules;
  /** WATCH_SECRET_KEY: seals the watch secrets at rest (decision 0025). */
  secretKey?: Buffer | undefined;
}

/**
 * Watch subscriptions as routes use them (the caller passes the id and the secret it presented),
 * the alerter's evaluation and its delivery loop.
 */
export function createWatchService({ db: handle, clock, metrics, rules, secretKey }: WatchDeps) {
  const { db } = handle;
  const deps = { db, clock };
  const evaluation = (log: Logger) => ({ db, soleWriter: handle.soleWriter, clock, log, metrics: watchMetrics(metrics) });
  /** The delivery loop's slots and the connections they hold. */
  function delivery(opts: AlerterOptions) {
    const dispatcher = createWebhookDispatcher({ allowPrivate: rules.allowPrivate, lookup: opts.lookup });
    const transport = { dispatcher, allowPrivate: rules.allowPrivate, wallClock: () => new Date(), timeoutMs: opts.deliveryTimeoutMs, secretKey };
    const m = watchMetrics(metrics);
    const pool = createDeliveryPool({
      db,
      clock,
      log: opts.log,
      transport,
      owner: opts.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
      random: opts.random,
      concurrency: opts.concurrency,
      perHost: opts.perHost,
      perCustomer: opts.perCustomer,
      hostRate: opts.hostRate,
      onResult: (status) => m.deliveries.inc({ status }),
      onDeferred: () => m.hostDeferrals.inc(),
    });
    const close = async () => {
      pool.stop();
      await pool.drain();
      await dispatcher.close();
    };
    return { pool, close };
  }
  return {
    /** The webhook URL as written against the configured rules (scheme, localhost, IP literals): checked before payment, no network. */
    urlProblem: (webhookUrl: string) => webhookUrlProblem(webhookUrl, rules),
    create: (input: CreateWatchInput) => createWatch({ db, clock, rules, secretKey }, input),
    status: (id: string, secret: string | undefined) => watchStatus(deps, id, secret),
    unsubscribe: (id: string, secret: string | undefined) => unsubscribeWatch(deps, id, secret),
    /** Signal changes into the delivery queue; never waits for a receiver. */
    evaluator: (log: Logger) => ({ tick: () => runEvaluation(evaluation(log)) }),
    /** How often the delivery loop looks for due alerts. */
    deliveryPollMs: DELIVERY_POLL_MS,
    /** The delivery loop as a task: each tick fills free slots and returns without waiting for receivers. */
    deliverer(opts: AlerterOptions) {
      const d = delivery(opts);
      return { tick: () => deliverTick(d.pool), abort: () => d.pool.stop(), close: d.close };
    },
    /** Both loops over one delivery pool, plus `settle`: every due delivery sent and recorded (operators, tests). */
    alerter(opts: AlerterOptions) {
      const d = delivery(opts);
      return {
        evaluate: () => runEvaluation(evaluation(opts.log)),
        deliver: () => deliverTick(d.pool),
        settle: () => d.pool.settle(),
        abort: () => d.pool.stop(),
        close: d.close,
      };
    },
  };
}

const deliverTick = async (pool: DeliveryPool) => ({ started: await pool.fill(), inFlight: pool.inFlight });

export type WatchService = ReturnType<typeof createWatchService>;
