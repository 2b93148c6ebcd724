import { sql, type Kysely, type RawBuilder } from "kysely";
import type { Database } from "../../db/schema.js";
import { probeRows } from "./insert-probes.js";
import type { ProbeRecord } from "./probe-record.js";
import { rollupStatement, type Merge } from "./rollup-sql.js";

const HOUR = 3_600_000;

/** Start of the UTC hour holding `at`. */
export function hourBucket(at: Date): Date {
  return new Date(Math.floor(at.getTime() / HOUR) * HOUR);
}

const rollup = async (db: Kysely<Database>, probes: RawBuilder<unknown>, merge: Merge): Promise<number> =>
  Number((await rollupStatement(probes, merge).execute(db)).numAffectedRows ?? 0n);

/**
 * Rolls raw probes into probe_hourly for every UTC hour from the one holding `since` onwards,
 * in one SQL statement. Each bucket is recomputed whole from raw rows and upserted, so running
 * it again, or while the hour is still open, is safe. Call it with `since` inside the raw
 * retention window: a bucket whose raw probes were already deleted would be overwritten with
 * what is left. With `listingIds`, only those listings' buckets are rolled (the prober's write
 * batches). Returns the number of bucket rows written.
 */
export function rollupProbes(db: Kysely<Database>, since: Date, listingIds?: readonly number[]): Promise<number> {
  const only = listingIds ? sql`listing_id = any(${[...listingIds]}::bigint[]) and` : sql``;
  const raw = sql`select * from probes where ${only} probed_at >= ${hourBucket(since).toISOString()}::timestamptz`;
  return rollup(db, raw, "replace");
}

/**
 * The buckets a write batch touched: those of `listingIds` from the hour holding `since`, whole,
 * from raw probes (raw probes outlive the open hour by hours, so every bucket re-rolled is
 * complete), so a retried or repeated batch cannot count a probe twice.
 */
export const rollupListings = (db: Kysely<Database>, listingIds: readonly number[], since: Date): Promise<number> =>
  listingIds.length === 0 ? Promise.resolve(0) : rollupProbes(db, since, listingIds);

/**
 * Adds probes just inserted (an imported history: insertNewProbes returns the new ones) to their
 * buckets, so imported history counts in 7-day signals even after its raw rows age out; their
 * hours may be older than the raw window, where the stored bucket is all that is left of the rest.
 */
export const rollupAdded = (db: Kysely<Database>, inserted: readonly ProbeRecord[]): Promise<number> =>
  inserted.length === 0 ? Promise.resolve(0) : rollup(db, sql`select * from ${probeRows(inserted)}`, "add");
