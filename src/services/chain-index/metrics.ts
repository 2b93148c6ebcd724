import { Counter, Gauge, type Registry } from "prom-client";

export interface IndexMetrics {
  lag: Gauge;
  settlements: Counter;
  ranges: Counter;
}

// A second indexer on the same registry (tests, a restart in-process) reuses the series.
const reuse = <T>(registry: Registry, name: string, create: () => T): T => (registry.getSingleMetric(name) as T | undefined) ?? create();

/** The indexer's series on /metrics: how far behind the head it is, and what it has read. */
export function indexMetrics(registry: Registry): IndexMetrics {
  const registers = [registry];
  return {
    lag: reuse(
      registry,
      "lookout_chain_index_lag_blocks",
      () =>
        new Gauge({ name: "lookout_chain_index_lag_blocks", help: "Blocks between the head (at confirmation depth) and the payTo read least far", registers }),
    ),
    settlements: reuse(
      registry,
      "lookout_chain_settlements_indexed_total",
      () =>
        new Counter({ name: "lookout_chain_settlements_indexed_total", help: "Settlements written by this process's indexer (re-reads included)", registers }),
    ),
    ranges: reuse(
      registry,
      "lookout_chain_log_ranges_total",
      () => new Counter({ name: "lookout_chain_log_ranges_total", help: "Block ranges read by this process's indexer", registers }),
    ),
  };
}
