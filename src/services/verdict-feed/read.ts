import { sql, type Kysely } from "kysely";
import { LOCKS } from "../../db/jobs/exclusive.js";
import type { Database } from "../../db/schema.js";
import type { FeedEntry } from "../evidence/feed-entry.js";

/** One row of the feed: a listing's entry (feed set) or a tombstone (feed null), in sequence order. */
export interface FeedRow {
  seq: number;
  url: string;
  method: string;
  feed: FeedEntry | null;
}

// The current entries: active listings whose entry is not older than a tombstone of theirs (listed again, not yet renumbered).
const ENTRIES = sql`
  select s.feed_seq as seq, l.url, l.method, s.feed
  from signal_snapshots s join listings l on l.id = s.listing_id
  where s.feed_seq is not null and l.is_active
    and not exists (select 1 from verdict_removals r where r.listing_id = s.listing_id and r.seq > s.feed_seq)`;

/** The last number handed out: every number at or below it has committed, under the exclusive feed lock. */
const CURRENT = sql`(select case when is_called then last_value else 0 end from verdict_seq)`;

/**
 * Runs `read` in a transaction holding the feed lock exclusively: writers of numbers hold it shared
 * until they commit, so no number below what the read sees can still commit (migration 0020).
 */
export function lockedRead<T>(db: Kysely<Database>, timeoutMs: number, read: (tx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (tx) => {
    await sql`select set_config('statement_timeout', ${String(timeoutMs)}, true)`.execute(tx);
    await sql`select pg_advisory_xact_lock(${sql.lit(LOCKS.verdictFeed.toString())}::bigint)`.execute(tx);
    return read(tx);
  });
}

/** Every current entry and the number the read is consistent at, in one statement. */
export async function readSnapshot(tx: Kysely<Database>): Promise<{ seq: number; rows: FeedRow[] }> {
  const { rows } = await sql<FeedRow & { current: number }>`
    select e.*, c.current from (select ${CURRENT} as current) c left join (${ENTRIES}) e on true order by e.seq`.execute(tx);
  return { seq: Number(rows[0]?.current ?? 0), rows: rows.filter((r) => r.seq !== null).map(toRow) };
}

/**
 * The entries numbered above `since` and the tombstones above it that no newer entry or tombstone
 * of their listing supersedes, in sequence order, at most `limit` + 1 (one more says "truncated").
 */
export async function readDeltas(tx: Kysely<Database>, since: number, limit: number): Promise<{ seq: number; rows: FeedRow[] }> {
  const { rows } = await sql<FeedRow & { current: number }>`
    with changed as (select * from (${ENTRIES}) e where e.seq > ${since}),
    removed as (
      select distinct on (r.listing_id) r.seq, r.url, r.method, null::jsonb as feed
      from verdict_removals r
      where r.seq > ${since}
        and not exists (
          select 1 from signal_snapshots s join listings l on l.id = s.listing_id
          where s.listing_id = r.listing_id and l.is_active and s.feed_seq > r.seq)
      order by r.listing_id, r.seq desc),
    page as (select * from changed union all select * from removed order by seq limit ${limit + 1})
    select p.*, c.current from (select ${CURRENT} as current) c left join page p on true order by p.seq`.execute(tx);
  return { seq: Number(rows[0]?.current ?? 0), rows: rows.filter((r) => r.seq !== null).map(toRow) };
}

/** What decides whether deltas since `since` can be answered (checked before payment, without the lock). */
export async function sinceBounds(db: Kysely<Database>, since: number) {
  const { rows } = await sql<{ current: number; forgotten: number | null; next_change_at: Date | null }>`
    select ${CURRENT} as current,
           (select (value #>> '{}')::bigint from app_state where key = 'verdict_feed_forgotten_seq') as forgotten,
           least((select feed_at from signal_snapshots where feed_seq > ${since} order by feed_seq limit 1),
                 (select removed_at from verdict_removals where seq > ${since} order by seq limit 1)) as next_change_at`.execute(db);
  const r = rows[0]!;
  return {
    current: Number(r.current),
    forgotten: r.forgotten === null ? 0 : Number(r.forgotten),
    nextChangeAt: r.next_change_at && new Date(r.next_change_at),
  };
}

const toRow = (r: FeedRow): FeedRow => ({ seq: Number(r.seq), url: r.url, method: r.method, feed: r.feed });
