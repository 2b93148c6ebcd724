import { sql } from "kysely";
import type { DbHandle } from "./client.js";

/**
 * Planner statistics and dead rows of the tables the prober churns. PostgreSQL's autovacuum
 * does this on a server; embedded PGlite runs no background workers, so there the prober does
 * it itself, a few statements every RETENTION_INTERVAL_MS. Without fresh statistics a catalog
 * just ingested in bulk looks tiny to the planner and every claim sorts the whole backlog
 * instead of reading the due index in order; so the first run analyses listings on both.
 */
export async function maintainProbeTables(h: DbHandle, firstRun: boolean): Promise<void> {
  if (h.dialect === "pglite") {
    await sql`vacuum (analyze) listings, probes, probe_hourly, signal_snapshots, host_checks`.execute(h.db);
  } else if (firstRun) {
    await sql`analyze listings`.execute(h.db);
  }
}
