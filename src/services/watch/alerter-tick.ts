import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import type { Logger } from "../../lib/log.js";
import { deliverDue } from "./deliver-due.js";
import { cancelStopped } from "./delivery-queue.js";
import { evaluateTransitions } from "./evaluate-transitions.js";
import type { WatchMetrics } from "./metrics.js";
import type { Transport } from "./send-delivery.js";

export interface AlerterDeps {
  db: Kysely<Database>;
  soleWriter: boolean;
  clock: Clock;
  log: Logger;
  metrics: WatchMetrics;
  transport: Transport;
  owner: string;
  random?: () => number;
  concurrency?: number;
}

export interface AlerterTickSummary {
  /** Live watches evaluated; 0 when another alerter held the evaluation this tick. */
  watches: number;
  /** Alerts raised by state changes, of which `skippedQuota` found no alert left. */
  alerts: number;
  fired: number;
  cleared: number;
  skippedQuota: number;
  /** Waiting alerts closed because their watch expired or was unsubscribed. */
  cancelled: number;
  attempted: number;
  delivered: number;
  retrying: number;
  failed: number;
  /** Attempts whose lease another process had taken over (not recorded by this one). */
  lost: number;
  ms: number;
}

/** One alerter tick: raise alerts for changed signals, close what stopped, send what is due. */
export async function runAlerterTick(deps: AlerterDeps, signal?: AbortSignal): Promise<AlerterTickSummary> {
  const started = performance.now();
  const t = await evaluateTransitions(deps);
  const cancelled = await cancelStopped(deps.db, deps.clock.now());
  const m = deps.metrics;
  if (t.fired) m.alerts.inc({ state: "fired" }, t.fired);
  if (t.cleared) m.alerts.inc({ state: "cleared" }, t.cleared);
  if (t.skippedQuota) m.deliveries.inc({ status: "skipped_quota_exceeded" }, t.skippedQuota);
  if (cancelled) m.deliveries.inc({ status: "cancelled" }, cancelled);
  const d = await deliverDue({ ...deps, stopping: () => signal?.aborted ?? false, onResult: (status) => m.deliveries.inc({ status }) });
  const summary = { ...t, cancelled, ...d, ms: Math.round(performance.now() - started) };
  if (summary.alerts + summary.cancelled + summary.attempted > 0) deps.log.info(summary, "alerter tick");
  return summary;
}
