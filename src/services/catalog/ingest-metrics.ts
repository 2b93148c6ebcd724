import { Counter, Histogram, type Registry } from "prom-client";
import type { PollSummary } from "./types.js";

export interface IngestMetrics {
  polls: Counter<"status">;
  listings: Counter<"change">;
  malformed: Counter;
  cycleDuration: Histogram;
}

function once<T>(registry: Registry, name: string, make: () => T): T {
  // A second ingester in one process (tests, ROLE lists) shares the first one's series.
  return (registry.getSingleMetric(name) as T | undefined) ?? make();
}

export function ingestMetrics(registry: Registry): IngestMetrics {
  const registers = [registry];
  return {
    polls: once(
      registry,
      "lookout_ingest_polls_total",
      () => new Counter({ name: "lookout_ingest_polls_total", help: "Catalog polls by outcome (ok, partial, error)", labelNames: ["status"], registers }),
    ),
    listings: once(
      registry,
      "lookout_ingest_listings_total",
      () => new Counter({ name: "lookout_ingest_listings_total", help: "Listing changes seen by catalog polls", labelNames: ["change"], registers }),
    ),
    malformed: once(
      registry,
      "lookout_ingest_items_malformed_total",
      () => new Counter({ name: "lookout_ingest_items_malformed_total", help: "Catalog items skipped as malformed", registers }),
    ),
    cycleDuration: once(
      registry,
      "lookout_ingest_cycle_duration_seconds",
      () =>
        new Histogram({
          name: "lookout_ingest_cycle_duration_seconds",
          help: "Duration of one ingest cycle over all due sources",
          buckets: [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
          registers,
        }),
    ),
  };
}

/** `retired`: listings that left because only sources past their grace still listed them. */
export function recordCycle(m: IngestMetrics, summaries: readonly PollSummary[], seconds: number, retired = 0): void {
  m.listings.inc({ change: "removed" }, retired);
  for (const s of summaries) {
    m.polls.inc({ status: s.status });
    m.listings.inc({ change: "added" }, s.added);
    m.listings.inc({ change: "removed" }, s.removed);
    m.listings.inc({ change: "updated" }, s.updated);
    m.malformed.inc(s.itemsMalformed);
  }
  m.cycleDuration.observe(seconds);
}
