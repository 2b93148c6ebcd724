export { openDatabase, redactDatabaseUrl, type DbDialect, type DbHandle, type OpenDatabaseOptions } from "./client.js";
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
export type * from "./schema.js";
