import type { DbHandle } from "../../db/client.js";
import type { Clock } from "../../lib/clock.js";
import { SNAPSHOT_BATCH_SIZE } from "./constants.js";
import { upsertEvidence } from "./snapshot-sql.js";

export interface SnapshotContext {
  db: DbHandle;
  clock: Clock;
}

/**
 * Recomputes the numeric evidence of signal_snapshots for the given listings, or for every
 * active listing, SNAPSHOT_BATCH_SIZE listings per statement. Returns the rows written.
 */
export async function recomputeSnapshots(ctx: SnapshotContext, listingIds?: readonly number[]): Promise<number> {
  const now = ctx.clock.now();
  const { db } = ctx.db;
  let written = 0;
  if (listingIds) {
    const unique = [...new Set(listingIds)];
    for (let i = 0; i < unique.length; i += SNAPSHOT_BATCH_SIZE) {
      written += await upsertEvidence(db, unique.slice(i, i + SNAPSHOT_BATCH_SIZE), now);
    }
    return written;
  }
  // Keyset pages over active listings: each page is one indexed range read, whatever the size.
  let after = 0;
  for (;;) {
    const page = await db
      .selectFrom("listings")
      .select("id")
      .where("is_active", "=", true)
      .where("id", ">", after)
      .orderBy("id")
      .limit(SNAPSHOT_BATCH_SIZE)
      .execute();
    if (page.length === 0) return written;
    written += await upsertEvidence(
      db,
      page.map((r) => Number(r.id)),
      now,
    );
    after = Number(page[page.length - 1]!.id);
  }
}
