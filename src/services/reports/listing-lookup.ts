import { CompiledQuery, sql, type Kysely } from "kysely";
import { coalesce } from "../../db/coalesce.js";
import { executePrepared } from "../../db/prepared.js";
import type { Database } from "../../db/schema.js";
import { selectListingRows, type ListingRow } from "../signals/listing-row.js";

/**
 * Listing rows by normalized URL (undefined: not catalogued), for the preflight routes and
 * forensics. Concurrent lookups, whatever the route, share one indexed statement per event-loop
 * turn (coalesce); an active listing wins over an inactive one, then the most
 * recently seen. The SQL takes the URLs as one array, so it is one text (one prepared statement)
 * whatever the count.
 */
export type ListingLookup = (urlNormalized: string) => Promise<ListingRow | undefined>;

export function createListingLookup(db: Kysely<Database>): ListingLookup {
  const text = selectListingRows(db, "few")
    .where(sql<boolean>`l.url_normalized = any(${sql.val([])}::text[])`)
    .orderBy("l.is_active", "asc")
    .orderBy("l.last_seen_at", "asc")
    .compile().sql;
  return coalesce(async (urls: readonly string[]) => {
    const distinct = [...new Set(urls)];
    const rows = await executePrepared(db, "listing-rows", CompiledQuery.raw(text, [distinct]) as CompiledQuery<ListingRow>);
    // Later rows win.
    const byUrl = new Map(rows.map((r) => [r.url_normalized, r]));
    return urls.map((u) => byUrl.get(u));
  });
}
