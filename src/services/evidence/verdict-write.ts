import { isDeepStrictEqual } from "node:util";
import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { blacklistReasons, type ListingRow, type SignalContext, signalInput, storedContext, THRESHOLDS } from "../signals/index.js";
import { LOCKS } from "../../db/jobs/exclusive.js";
import { feedEntryOf, sameFeed, type FeedState } from "./feed-entry.js";
import { judge } from "./verdict.js";
import { liveVantages } from "./vantages.js";
import { applyGate, type VantageColumns } from "./vantage-gate-sql.js";
import { vantageGate } from "./vantage-gate.js";

export const WRITE_CHUNK = 2000;

/** A listing's row as the verdict passes read it: its evidence, the verdict it stores and its feed entry. */
export interface StoredRow extends ListingRow, FeedState, Partial<VantageColumns> {
  warnings: string[] | null;
  critical: boolean | null;
  blacklist_reasons: string[] | null;
  delist_reasons: string[] | null;
  risk_score: number | null;
}

/**
 * ghost_listing (delist): alive and unused. Where the chain is read, unused is its word: no
 * settlement in 30 days but self-dealing, once listed GHOST_MIN_LISTED_HOURS (the summary's
 * ghost_after; decision 0052). Elsewhere the catalog's: listed 30+ days, no call counted in 30.
 */
export function isGhost(row: ListingRow, now: Date): boolean {
  if (row.last_outcome !== "healthy") return false;
  const chain = row.settlements as { used_30d?: boolean; ghost_after?: string } | null | undefined;
  if (chain && typeof chain.used_30d === "boolean") return !chain.used_30d && now.getTime() >= Date.parse(chain.ghost_after ?? "");
  return now.getTime() - row.first_seen_at.getTime() >= THRESHOLDS.neverPaidListedMs && row.l30d_calls === 0;
}

/**
 * Evaluates each row against its context and writes the verdicts that changed, with the offline
 * guard's entry in the same statement (a changed entry takes the next verdict_seq number, under
 * the feed lock held shared: decision 0022); returns how many rows it wrote.
 */
export async function writeChanged(
  db: Kysely<Database>,
  rows: readonly StoredRow[],
  contextOf: (row: StoredRow) => SignalContext | null,
  now: Date,
  /** Live probe vantages, when the caller counted them already. */
  liveCount?: number,
) {
  const live = liveCount ?? (await liveVantages(db, now));
  const gated = rows.map((row) => {
    const context = contextOf(row);
    const v = verdictOf(row, context, now);
    const feed = feedEntryOf(row, context, { warnings: v.warnings, risk_score: v.risk }, now);
    const gate = vantageGate({ critical: row.critical, last_outcome: row.last_outcome, ...vantageOf(row) }, v.critical, live, now);
    return { row, v, feed, gate };
  });
  // A critical verdict one vantage raised waits for another's probe (decision 0048); the request says so.
  await applyGate(db, gated, now);
  const updates = gated
    .filter(({ gate }) => !gate.hold)
    // Only what changed is written: between two recomputes most verdicts stay as they were.
    .filter(({ row, v, feed }) => !unchanged(row, v) || !sameFeed(row, feed))
    .map(({ v, feed }) => ({ ...v, feed }))
    // Rows in key order, in every writer: the full pass and an incremental update may overlap, and
    // upserts that lock the same rows in different orders deadlock on PostgreSQL.
    .sort((a, b) => a.id - b.id);
  for (let i = 0; i < updates.length; i += WRITE_CHUNK) {
    const chunk = JSON.stringify(updates.slice(i, i + WRITE_CHUNK));
    // The feed lock is taken (shared) before the first row is written, so it never waits holding rows.
    await sql`
      with feed_lock as materialized (select pg_advisory_xact_lock_shared(${sql.lit(LOCKS.verdictFeed.toString())}::bigint))
      insert into signal_snapshots (listing_id, computed_at, warnings, critical, blacklist_reasons, delist_reasons, risk_score, flagged_since, detail, feed, feed_seq, feed_at)
      select x.id, ${now.toISOString()}::timestamptz,
             array(select jsonb_array_elements_text(x.warnings)), x.critical,
             array(select jsonb_array_elements_text(x.blacklist)), array(select jsonb_array_elements_text(x.delist)),
             x.risk, x.flagged_since, case when x.context is null then '{}'::jsonb else jsonb_build_object('context', x.context) end,
             x.feed, nextval('verdict_seq'), ${now.toISOString()}::timestamptz
      from feed_lock, jsonb_to_recordset(${chunk}::jsonb) as x(id bigint, warnings jsonb, critical boolean, blacklist jsonb, delist jsonb, risk float8, flagged_since timestamptz, context jsonb, feed jsonb)
      order by x.id
      on conflict (listing_id) do update set
        warnings = excluded.warnings, critical = excluded.critical,
        blacklist_reasons = excluded.blacklist_reasons, delist_reasons = excluded.delist_reasons,
        risk_score = excluded.risk_score, flagged_since = excluded.flagged_since,
        detail = signal_snapshots.detail || excluded.detail,
        feed = excluded.feed,
        -- A number only for a changed entry, or for one listed again after its tombstone.
        feed_seq = case when signal_snapshots.feed is distinct from excluded.feed or signal_snapshots.feed_seq is null
                          or exists (select 1 from verdict_removals r where r.listing_id = excluded.listing_id and r.seq > signal_snapshots.feed_seq)
                        then nextval('verdict_seq') else signal_snapshots.feed_seq end,
        feed_at = case when signal_snapshots.feed is distinct from excluded.feed or signal_snapshots.feed_seq is null
                         or exists (select 1 from verdict_removals r where r.listing_id = excluded.listing_id and r.seq > signal_snapshots.feed_seq)
                       then excluded.feed_at else signal_snapshots.feed_at end`.execute(db);
  }
  return updates.length;
}

type VerdictWrite = ReturnType<typeof verdictOf>;

const vantageOf = (row: StoredRow) => ({
  last_vantage: row.last_vantage ?? null,
  last_probed_at: row.last_probed_at ? new Date(row.last_probed_at) : null,
  confirm: row.confirm
    ? { ...row.confirm, requested_at: new Date(row.confirm.requested_at), confirmed_at: row.confirm.confirmed_at ? new Date(row.confirm.confirmed_at) : null }
    : null,
});

function verdictOf(row: StoredRow, context: SignalContext | null, now: Date) {
  const verdict = judge(signalInput(row, context), now);
  const blacklist = blacklistReasons(verdict.reason_codes);
  const delist = isGhost(row, now) && blacklist.length === 0 ? ["ghost_listing"] : blacklist;
  return {
    id: row.id,
    // The stored verdict keeps every code that fired (reason_codes); each product shows its view of them.
    warnings: verdict.reason_codes,
    critical: !verdict.ok,
    blacklist,
    delist,
    risk: verdict.risk_score,
    flagged_since: delist.length === 0 ? null : (row.flagged_since ?? now).toISOString(),
    context,
  };
}

/** Whether the snapshot already holds this verdict (the context compared as the JSON it is stored as). */
function unchanged(row: StoredRow, v: VerdictWrite): boolean {
  return (
    row.computed_at !== null &&
    row.critical === v.critical &&
    row.risk_score === v.risk &&
    (row.flagged_since?.toISOString() ?? null) === v.flagged_since &&
    isDeepStrictEqual(row.warnings, v.warnings) &&
    isDeepStrictEqual(row.blacklist_reasons, v.blacklist) &&
    isDeepStrictEqual(row.delist_reasons, v.delist) &&
    (v.context === null || isDeepStrictEqual(storedContext(row), JSON.parse(JSON.stringify(v.context))))
  );
}
