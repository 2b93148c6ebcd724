import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

/**
 * After a complete poll: the source's active listings it did not see are gone from the
 * catalog. Every listing the poll saw has last_seen_at >= the poll's start, so "not seen" is
 * simply older. A listing another source saw last belongs to that source and is left alone, and
 * so is one whose item came malformed this time (`keep`, normalised URLs): garbage is not absence.
 * Returns how many listings turned inactive.
 */
export async function deactivateUnseen(db: Kysely<Database>, source: string, pollStartedAt: Date, now: Date, keep: readonly string[] = []): Promise<number> {
  let q = db
    .updateTable("listings")
    .set({ is_active: false, deactivated_at: now, updated_at: now })
    .where("source_url", "=", source)
    .where("is_active", "=", true)
    .where("last_seen_at", "<", pollStartedAt);
  // One JSON parameter however many URLs, as the upserts send their batches.
  if (keep.length > 0) q = q.where(sql<boolean>`url_normalized not in (select jsonb_array_elements_text(${JSON.stringify(keep)}::jsonb))`);
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows);
}
