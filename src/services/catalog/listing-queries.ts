import { CompiledQuery, sql, type Kysely, type SelectQueryBuilder } from "kysely";
import { coalesce } from "../../db/coalesce.js";
import { executePrepared } from "../../db/prepared.js";
import type { Database } from "../../db/schema.js";

/** Listings (`l`) with their service (`sv`) and provider (`p`), the rows whose names answers show. */
export const listingsWithNames = (db: Kysely<Database>) =>
  db.selectFrom("listings as l").innerJoin("services as sv", "sv.service_id", "l.service_id").leftJoin("providers as p", "p.provider_id", "l.provider_id");

/** A listing's provider as answers name it: the provider's name, else its id (the pay-to address). */
export const providerName = () => sql<string | null>`coalesce(p.name, l.provider_id)`;

/**
 * Rows of `query` (over `listings as l`, selecting `url_normalized`) by normalized URL: the
 * lookups of one event-loop turn share one indexed statement (coalesce), one SQL text whatever
 * the count (the URLs go in as one array), run as a prepared statement named `name`. An active
 * listing wins over an inactive one, then the most recently seen; undefined: not catalogued.
 */
export function createUrlLookup<R extends { url_normalized: string }>(
  db: Kysely<Database>,
  name: string,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any joins over `listings as l`
  query: SelectQueryBuilder<any, "l", R>,
): (urlNormalized: string) => Promise<R | undefined> {
  const text = query
    .where(sql<boolean>`l.url_normalized = any(${sql.val([])}::text[])`)
    .orderBy(sql`l.is_active`, "asc")
    .orderBy(sql`l.last_seen_at`, "asc")
    .compile().sql;
  return coalesce(async (urls: readonly string[]) => {
    const rows = await executePrepared(db, name, CompiledQuery.raw(text, [[...new Set(urls)]]) as CompiledQuery<R>);
    const byUrl = new Map(rows.map((r) => [r.url_normalized, r])); // later rows win
    return urls.map((u) => byUrl.get(u));
  });
}
