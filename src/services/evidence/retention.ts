import type { Kysely } from "kysely";
import { deleteHourlyRollupsBefore, deleteRawProbesBefore } from "../../db/retention.js";
import type { Database } from "../../db/schema.js";
import { RAW_PROBE_RETENTION_MS, RETENTION_BATCH_SIZE, RETENTION_MAX_BATCHES, ROLLUP_RETENTION_MS } from "./constants.js";

export interface RetentionResult {
  probes: number;
  rollups: number;
}

export interface RetentionOptions {
  batchSize?: number;
  maxBatches?: number;
}

/**
 * Deletes raw probes and hourly rollups past their windows, in bounded batches so no statement
 * holds locks over millions of rows and one run's work is capped (the next run continues).
 */
export async function pruneProbeHistory(db: Kysely<Database>, now: Date, opts: RetentionOptions = {}): Promise<RetentionResult> {
  const batch = { batchSize: opts.batchSize ?? RETENTION_BATCH_SIZE, maxBatches: opts.maxBatches ?? RETENTION_MAX_BATCHES };
  const probes = await deleteRawProbesBefore(db, new Date(now.getTime() - RAW_PROBE_RETENTION_MS), batch);
  const rollups = await deleteHourlyRollupsBefore(db, new Date(now.getTime() - ROLLUP_RETENTION_MS), batch);
  return { probes, rollups };
}
