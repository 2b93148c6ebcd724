import type { Kysely } from "kysely";
import { rollupProbes } from "../../db/rollup.js";
import type { Database } from "../../db/schema.js";

/**
 * Recomputes the hourly buckets of the given listings from the hour holding `since` onwards,
 * whole, from raw probes, so a write batch re-rolls only what it touched. Recomputing instead of
 * adding increments makes it idempotent: a retried or repeated batch cannot count a probe twice.
 * Raw probes outlive the open hour by hours (RAW_PROBE_RETENTION_MS), so every bucket re-rolled
 * here is complete.
 */
export async function rollupListings(db: Kysely<Database>, listingIds: readonly number[], since: Date): Promise<number> {
  return listingIds.length === 0 ? 0 : rollupProbes(db, since, listingIds);
}
