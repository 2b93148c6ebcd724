import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { CatalogSource } from "./source-spec.js";

export interface PollCounts {
  complete: boolean;
  itemsSeen: number;
  itemsValid: number;
  itemsMalformed: number;
  added: number;
  removed: number;
  error: string | null;
}

/** Opens the poll's row first, so a crash mid-poll still leaves a trace (finished_at null). */
export async function openPoll(db: Kysely<Database>, source: CatalogSource, startedAt: Date): Promise<number> {
  const row = await db
    .insertInto("catalog_polls")
    .values({ source_id: source.id, source_url: source.url, started_at: startedAt, error: null })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function closePoll(db: Kysely<Database>, pollId: number, finishedAt: Date, c: PollCounts): Promise<void> {
  await db
    .updateTable("catalog_polls")
    .set({
      finished_at: finishedAt,
      complete: c.complete,
      items_seen: c.itemsSeen,
      items_valid: c.itemsValid,
      items_malformed: c.itemsMalformed,
      listings_added: c.added,
      listings_removed: c.removed,
      error: c.error,
    })
    .where("id", "=", pollId)
    .execute();
}
