import { Counter, type Registry } from "prom-client";

export interface WatchMetrics {
  /** Attempts by result (delivered, retrying, failed, lost) plus skipped_quota_exceeded and cancelled alerts. */
  deliveries: Counter<"status">;
  /** Alerts raised by state change. */
  alerts: Counter<"state">;
  /** Claimed deliveries handed back unsent because their receiver host was over its rate. */
  hostDeferrals: Counter;
}

// A second alerter on the same registry (tests, an in-process restart) reuses the series.
function reuse<T>(registry: Registry, name: string, create: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? create();
}

export function watchMetrics(registry: Registry): WatchMetrics {
  const registers = [registry];
  return {
    deliveries: reuse(
      registry,
      "lookout_webhook_deliveries_total",
      () =>
        new Counter({
          name: "lookout_webhook_deliveries_total",
          help: "Webhook delivery attempts and closed alerts by status",
          labelNames: ["status"],
          registers,
        }),
    ),
    alerts: reuse(
      registry,
      "lookout_watch_alerts_total",
      () =>
        new Counter({ name: "lookout_watch_alerts_total", help: "Watch alerts raised, by the state the signal moved to", labelNames: ["state"], registers }),
    ),
    hostDeferrals: reuse(
      registry,
      "lookout_webhook_host_deferrals_total",
      () =>
        new Counter({
          name: "lookout_webhook_host_deferrals_total",
          help: "Webhook deliveries put back unsent because their receiver host was over its per-host rate",
          registers,
        }),
    ),
  };
}
