import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import type { Logger } from "../../lib/log.js";
import { cancelStopped } from "./delivery-queue.js";
import type { DeliverySummary } from "./delivery-pool.js";
import { evaluateTransitions, type TransitionSummary } from "./evaluate-transitions.js";
import type { WatchMetrics } from "./metrics.js";

export interface EvaluationDeps {
  db: Kysely<Database>;
  soleWriter: boolean;
  clock: Clock;
  log: Logger;
  metrics: WatchMetrics;
}

export interface EvaluationSummary extends TransitionSummary {
  /** Waiting alerts closed because their watch expired or was unsubscribed. */
  cancelled: number;
  ms: number;
}

/** An evaluation and the deliveries that followed it (the alerter's runNow, tests). */
export type AlerterTickSummary = EvaluationSummary & DeliverySummary;

/**
 * One evaluation: raise alerts for changed signals into the delivery queue and close what
 * stopped. It sends nothing and so never waits for a receiver; the delivery loop sends.
 */
export async function runEvaluation(deps: EvaluationDeps): Promise<EvaluationSummary> {
  const started = performance.now();
  const t = await evaluateTransitions(deps);
  const cancelled = await cancelStopped(deps.db, deps.clock.now());
  const m = deps.metrics;
  if (t.fired) m.alerts.inc({ state: "fired" }, t.fired);
  if (t.cleared) m.alerts.inc({ state: "cleared" }, t.cleared);
  if (t.skippedQuota) m.deliveries.inc({ status: "skipped_quota_exceeded" }, t.skippedQuota);
  if (cancelled) m.deliveries.inc({ status: "cancelled" }, cancelled);
  const summary = { ...t, cancelled, ms: Math.round(performance.now() - started) };
  if (summary.alerts + summary.cancelled > 0) deps.log.info(summary, "alerter evaluation");
  return summary;
}
