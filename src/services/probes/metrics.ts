import { Counter, Histogram, type Registry } from "prom-client";

export interface ProbeMetrics {
  probes: Counter<"outcome">;
  probeDuration: Histogram<"outcome">;
  cycleDuration: Histogram;
  hostChecks: Counter<"result">;
  confirmations: Counter;
}

// A second prober on the same registry (tests, a restart in-process) reuses the series.
function reuse<T>(registry: Registry, name: string, create: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? create();
}

export function probeMetrics(registry: Registry): ProbeMetrics {
  const registers = [registry];
  return {
    probes: reuse(
      registry,
      "lookout_probes_total",
      () => new Counter({ name: "lookout_probes_total", help: "Endpoint probes by outcome", labelNames: ["outcome"], registers }),
    ),
    probeDuration: reuse(
      registry,
      "lookout_probe_duration_seconds",
      () =>
        new Histogram({
          name: "lookout_probe_duration_seconds",
          help: "Time to response headers of endpoint probes that got a response",
          labelNames: ["outcome"],
          buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10],
          registers,
        }),
    ),
    cycleDuration: reuse(
      registry,
      "lookout_probe_cycle_duration_seconds",
      () =>
        new Histogram({
          name: "lookout_probe_cycle_duration_seconds",
          help: "Duration of prober cycles (claim, probe, record, host checks, snapshots)",
          buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
          registers,
        }),
    ),
    hostChecks: reuse(
      registry,
      "lookout_host_checks_total",
      () => new Counter({ name: "lookout_host_checks_total", help: "Host checks by result", labelNames: ["result"], registers }),
    ),
    confirmations: reuse(
      registry,
      "lookout_probe_confirmations_total",
      () => new Counter({ name: "lookout_probe_confirmations_total", help: "Probes planned ahead of their slot to confirm a change of state", registers }),
    ),
  };
}
