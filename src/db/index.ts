export { openDatabase, redactDatabaseUrl, type DbDialect, type DbHandle, type OpenDatabaseOptions } from "./client.js";
export { BIN_COUNT, binOf, binValue, histogramCount, histogramOf, mergeHistograms, percentile, type LatencyHistogram } from "./latency-histogram.js";
export { loadMigrations, migrate, MIGRATIONS_DIR, type MigrateOptions, type MigrationFile } from "./migrate.js";
export { PGliteDialect, type PGliteDialectConfig } from "./pglite-dialect.js";
export {
  applyRetention,
  deleteHourlyRollupsBefore,
  deleteOlderThan,
  deleteRawProbesBefore,
  RETENTION_MS,
  type BatchDeleteOptions,
  type RetentionTable,
} from "./retention.js";
export { hourBucket, rollupProbes } from "./rollup.js";
export type * from "./schema.js";
