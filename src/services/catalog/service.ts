import type { Readable } from "node:stream";
import type { Registry } from "prom-client";
import type { DbHandle } from "../../db/client.js";
import type { Clock } from "../../lib/clock.js";
import type { Logger } from "../../lib/log.js";
import { runIngestCycle } from "./ingest-cycle.js";
import { ingestMetrics } from "./ingest-metrics.js";
import { exportProbes, type ExportOptions } from "./probe-history/export-probes.js";
import { importProbes, type ImportOptions } from "./probe-history/import-probes.js";
import type { CatalogSource } from "./source-spec.js";
import type { IngestOptions } from "./types.js";

export interface IngestRun {
  sources: ReadonlyArray<string | CatalogSource>;
  opts: IngestOptions;
  log: Logger;
  signal?: AbortSignal;
}

export interface CatalogDeps {
  db: Pick<DbHandle, "db">;
  clock: Clock;
  /** Where the ingester registers its series. */
  metrics: Registry;
}

/** The catalog: the ingester's poll cycle, and the probe history the operator CLI moves in and out (NDJSON). */
export function createCatalogService({ db: { db }, clock, metrics }: CatalogDeps) {
  return {
    // Series are registered by the first cycle, so processes without an ingester export none.
    ingest: ({ sources, opts, log, signal }: IngestRun) => runIngestCycle({ db, clock, log }, sources, opts, ingestMetrics(metrics), signal),
    importProbes: (input: Readable, opts?: ImportOptions) => importProbes(db, clock, input, opts),
    exportProbes: (opts?: ExportOptions) => exportProbes(db, opts),
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;
