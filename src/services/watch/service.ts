import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Registry } from "prom-client";
import type { DbHandle } from "../../db/client.js";
import type { Clock } from "../../lib/clock.js";
import type { Logger } from "../../lib/log.js";
import type { LookupFunction } from "../../lib/ssrf-guard.js";
import { runAlerterTick } from "./alerter-tick.js";
import { createWatch, type CreateWatchInput } from "./create-watch.js";
import { watchMetrics } from "./metrics.js";
import { createWebhookDispatcher } from "./webhook-dispatcher.js";
import { unsubscribeWatch, watchStatus } from "./watch-status.js";
import { literalAddressProblem, type WebhookRules } from "./webhook-url.js";

export interface AlerterOptions {
  log: Logger;
  /** Lease owner name (default host:pid:random). */
  owner?: string;
  /** Name resolution at connect time (tests point names at chosen addresses). */
  lookup?: LookupFunction;
  /** Jitter source for retry delays. */
  random?: () => number;
  /** Delivery attempts in flight at once. */
  concurrency?: number;
  /** Time-out of one delivery attempt (default DELIVERY_TIMEOUT_MS). */
  deliveryTimeoutMs?: number;
}

/** Watch subscriptions as routes use them (the caller passes the id and the secret it presented), and the alerter. */
export function createWatchService(handle: DbHandle, clock: Clock, metrics: Registry, rules: WebhookRules) {
  const { db } = handle;
  const deps = { db, clock };
  return {
    /** A webhook URL naming a non-public, non-loopback IP literal: refused before payment whatever the deployment. */
    literalProblem: (webhookUrl: string) => literalAddressProblem(webhookUrl, { allowPrivate: true }),
    create: (input: CreateWatchInput) => createWatch({ db, clock, rules }, input),
    status: (id: string, secret: string | undefined) => watchStatus(deps, id, secret),
    unsubscribe: (id: string, secret: string | undefined) => unsubscribeWatch(deps, id, secret),
    /** One alerter's tick (evaluate, then deliver) and the connections it holds. */
    alerter(opts: AlerterOptions) {
      const dispatcher = createWebhookDispatcher({ allowPrivate: rules.allowPrivate, lookup: opts.lookup });
      const transport = { dispatcher, allowPrivate: rules.allowPrivate, wallClock: () => new Date(), timeoutMs: opts.deliveryTimeoutMs };
      const owner = opts.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
      const tickDeps = {
        db,
        soleWriter: handle.soleWriter,
        clock,
        log: opts.log,
        metrics: watchMetrics(metrics),
        transport,
        owner,
        random: opts.random,
        concurrency: opts.concurrency,
      };
      return { tick: (signal?: AbortSignal) => runAlerterTick(tickDeps, signal), close: () => dispatcher.close() };
    },
  };
}

export type WatchService = ReturnType<typeof createWatchService>;
