import { sql, type Kysely } from "kysely";
import type { DbHandle } from "../../db/client.js";
import type { Database } from "../../db/schema.js";
import { computeContexts, selectListingRows, storedContext } from "../signals/index.js";
import type { FeedEntry } from "./feed-entry.js";
import { WRITE_CHUNK, writeChanged } from "./verdict-write.js";
import { vantageSelections } from "./vantage-gate-sql.js";
import { liveVantages } from "./vantages.js";

/**
 * The full pass, every VERDICT_RECOMPUTE_MS: the verdict of every active listing from its snapshot
 * and the catalog-wide context (service health, group prices, markup references, effective
 * counts). Writes warnings, reasons and the context into signal_snapshots, so the request path and
 * the catalog products read one row instead of scanning; rows whose verdict and context did not
 * change are left alone. `db` may be a transaction of the handle's database (on PostgreSQL).
 */
export async function recomputeVerdicts(
  { db, generation }: Pick<DbHandle, "db" | "generation">,
  now: Date,
): Promise<{ listings: number; written: number; ms: number }> {
  const started = performance.now();
  const live = await liveVantages(db, now);
  const rows = await storedVerdictRows(db, live).where("l.is_active", "=", true).execute();
  const contexts = computeContexts(rows);
  const written = await writeChanged(db, rows, (row) => contexts.get(row.id)!, now, live);
  // A listing that left the catalog keeps its history but no longer counts as flagged.
  await db
    .updateTable("signal_snapshots")
    .set({ blacklist_reasons: [], delist_reasons: [], flagged_since: null })
    .where("listing_id", "in", (eb) => eb.selectFrom("listings").select("id").where("is_active", "=", false))
    .where("flagged_since", "is not", null)
    .execute();
  await generation.bump(db, now);
  return { listings: rows.length, written, ms: Math.round(performance.now() - started) };
}

/**
 * The incremental update, right after the snapshots of freshly probed listings were written: their
 * stored verdicts follow the new evidence at once, against the context of the last full pass (a
 * listing the full pass has not seen yet is judged on its own evidence). Returns the rows changed.
 */
export async function updateVerdicts({ db }: Pick<DbHandle, "db">, listingIds: readonly number[], now: Date): Promise<number> {
  // In slices, so a cycle of 100,000 first probes holds a slice of rows in memory, not all of them.
  const ids = [...new Set(listingIds)].sort((a, b) => a - b);
  let written = 0;
  const live = await liveVantages(db, now);
  for (let i = 0; i < ids.length; i += WRITE_CHUNK) {
    const rows = await storedVerdictRows(db, live)
      .where("l.is_active", "=", true)
      .where("l.id", "=", sql<number>`any(${ids.slice(i, i + WRITE_CHUNK)}::bigint[])`)
      .execute();
    written += await writeChanged(db, rows, (row) => storedContext(row), now, live);
  }
  // No generation bump: the per-generation caches (blacklist, alternatives pool) follow at the
  // next full pass, at most VERDICT_RECOMPUTE_MS later, instead of rebuilding after every cycle.
  return written;
}

/** `live`: live probe vantages; the gate's columns are read only when two or more are (decision 0048). */
const storedVerdictRows = (db: Kysely<Database>, live: number) =>
  selectListingRows(db)
    .select([
      "s.critical",
      "s.blacklist_reasons",
      "s.delist_reasons",
      sql<FeedEntry | null>`s.feed`.as("feed"),
      // Listed again after it left: its entry needs a number above its tombstone's.
      sql<boolean>`exists (select 1 from verdict_removals r where r.listing_id = l.id and r.seq > s.feed_seq)`.as("feed_removed"),
    ])
    .$if(live >= 2, (q) => q.select([...vantageSelections]));
