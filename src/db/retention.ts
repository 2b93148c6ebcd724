import { sql, type Kysely } from "kysely";
import { SNAPSHOT_LIMITS } from "@x402-lookout/contracts/snapshot/limits";
import type { Database } from "./schema.js";

/**
 * Deletes expired rows in bounded batches, so no statement holds locks or builds WAL for
 * millions of rows at once and the prober keeps writing in between. Each batch picks
 * (tableoid, ctid) through the time index and deletes exactly those tuples; tableoid keeps this
 * correct if a table is later partitioned (ctid alone repeats across partitions).
 */

interface RetentionTarget {
  column: string;
  kind: "timestamptz" | "date";
  /** Rows that must survive whatever their age. */
  keep?: string;
}

export const RETENTION_TARGETS = {
  probes: { column: "probed_at", kind: "timestamptz" },
  probe_hourly: { column: "bucket", kind: "timestamptz" },
  catalog_polls: { column: "started_at", kind: "timestamptz" },
  flag_history: { column: "day", kind: "date" },
  trial_counters: { column: "day", kind: "date" },
  trial_cache: { column: "expires_at", kind: "timestamptz" },
  live_probe_cache: { column: "expires_at", kind: "timestamptz" },
  host_rate_limits: { column: "window_start", kind: "timestamptz" },
  listing_quotes: { column: "last_seen_at", kind: "timestamptz" },
  // Deleting a tombstone raises the feed's forgotten number (migration 0020's trigger).
  verdict_removals: { column: "removed_at", kind: "timestamptz" },
  // Terms a listing's history still names are kept (a probe's terms are in its listing's history).
  quote_terms: { column: "first_seen_at", kind: "timestamptz", keep: "exists (select 1 from listing_quotes as q where q.digest = quote_terms.digest)" },
  // A pending delivery is still owed to its receiver.
  webhook_deliveries: { column: "created_at", kind: "timestamptz", keep: "status = 'pending'" },
  // An open check still holds budget until the chain says what it spent (decision 0051).
  delivery_checks: { column: "started_at", kind: "timestamptz", keep: "state <> 'done'" },
  chain_settlements: { column: "settled_at", kind: "timestamptz" },
  outcome_reports: { column: "accepted_at", kind: "timestamptz" },
} as const satisfies Partial<Record<keyof Database, RetentionTarget>>;

export type RetentionTable = keyof typeof RETENTION_TARGETS;

export interface BatchDeleteOptions {
  /** Rows per DELETE statement (default 5000). */
  batchSize?: number;
  /** Stop after this many statements even if rows remain (default: until done). */
  maxBatches?: number;
}

export const DEFAULT_BATCH_SIZE = 5000;

/** Deletes rows of `table` whose time column is before `before`; returns how many. */
export async function deleteOlderThan(db: Kysely<Database>, table: RetentionTable, before: Date, opts: BatchDeleteOptions = {}): Promise<number> {
  const target: RetentionTarget = RETENTION_TARGETS[table];
  const batchSize = opts.batchSize ?? DEFAULT_BATCH_SIZE;
  const maxBatches = opts.maxBatches ?? Number.POSITIVE_INFINITY;
  if (!Number.isInteger(batchSize) || batchSize <= 0) throw new RangeError("batchSize must be a positive integer");
  // A date column compares with the UTC calendar day, whatever the session time zone.
  const cutoff = target.kind === "date" ? before.toISOString().slice(0, 10) : before;
  const keep = target.keep ? sql`and not (${sql.raw(target.keep)})` : sql``;
  let total = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const result = await sql`
      with doomed as (
        select tableoid, ctid from ${sql.table(table)}
        where ${sql.ref(target.column)} < ${cutoff} ${keep}
        limit ${batchSize}
      )
      delete from ${sql.table(table)} as t
      using doomed
      where t.ctid = doomed.ctid and t.tableoid = doomed.tableoid`.execute(db);
    const deleted = Number(result.numAffectedRows ?? 0n);
    total += deleted;
    if (deleted < batchSize) break;
  }
  return total;
}

/** Raw probes before `before` (they live hours; rollups keep the history). */
export function deleteRawProbesBefore(db: Kysely<Database>, before: Date, opts?: BatchDeleteOptions): Promise<number> {
  return deleteOlderThan(db, "probes", before, opts);
}

/** Hourly rollups whose bucket starts before `before`. */
export function deleteHourlyRollupsBefore(db: Kysely<Database>, before: Date, opts?: BatchDeleteOptions): Promise<number> {
  return deleteOlderThan(db, "probe_hourly", before, opts);
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * How long each table keeps rows (ms before now). Why each number:
 * - probes 3 h: signals read 30 min and 1 h windows; rollups re-read the open hour, and the
 *   margin lets a rollup that fell two hours behind catch up from raw data.
 * - probe_hourly 8 d: 7-day forensics and 48 h recovery, plus a day of slack.
 * - catalog_polls 35 d: whats-new looks back up to 30 days.
 * - flag_history 365 d: caps flagged_days_consecutive at a year.
 * - trial_counters 2 d: only today's UTC counter matters; yesterday's helps support questions.
 * - caches 0: an expired cache row is useless.
 * - host_rate_limits 1 d; webhook_deliveries 35 d: a watch lives 30 days.
 * - listing_quotes 30 d: quote signals look back 7 days; the rest is the listing's record.
 * - quote_terms 1 d once nothing names them (the keep condition).
 * - verdict_removals: the deltas window (SNAPSHOT_LIMITS.deltaWindowHours, decision 0022).
 * - delivery_checks 30 d: the evidence a dispute may need (decision 0051); open checks are kept.
 * - chain_settlements 35 d: the summaries look back 30 days (decision 0052); outcome_reports 30 d.
 */
export const RETENTION_MS: Record<RetentionTable, number> = {
  probes: 3 * HOUR,
  probe_hourly: 8 * DAY,
  catalog_polls: 35 * DAY,
  flag_history: 365 * DAY,
  trial_counters: 2 * DAY,
  trial_cache: 0,
  live_probe_cache: 0,
  host_rate_limits: DAY,
  webhook_deliveries: 35 * DAY,
  listing_quotes: 30 * DAY,
  quote_terms: DAY,
  verdict_removals: SNAPSHOT_LIMITS.deltaWindowHours * HOUR,
  delivery_checks: 30 * DAY,
  chain_settlements: 35 * DAY,
  outcome_reports: 30 * DAY,
};

/** Applies RETENTION_MS to every table; returns rows deleted per table. */
export async function applyRetention(db: Kysely<Database>, now: Date, opts?: BatchDeleteOptions): Promise<Record<RetentionTable, number>> {
  const counts = {} as Record<RetentionTable, number>;
  for (const table of Object.keys(RETENTION_MS) as RetentionTable[]) {
    counts[table] = await deleteOlderThan(db, table, new Date(now.getTime() - RETENTION_MS[table]), opts);
  }
  return counts;
}
