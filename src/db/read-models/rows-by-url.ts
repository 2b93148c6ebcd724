import { CompiledQuery, sql, type SelectQueryBuilder } from "kysely";
import type { DbHandle } from "../client.js";
import { coalesce } from "../coalesce.js";

/** Rows of one query by normalized URL; undefined: not catalogued. */
export type RowsByUrl<R> = (urlNormalized: string) => Promise<R | undefined>;

/**
 * Rows of `query` (over `listings as l`, selecting `url_normalized`) by normalized URL: the
 * lookups of one event-loop turn share one indexed statement (coalesce), one SQL text whatever
 * the count (the URLs go in as one array), run as the handle's prepared statement `name`. An
 * active listing wins over an inactive one, then the most recently seen.
 */
export function createRowsByUrl<R extends { url_normalized: string }>(
  handle: Pick<DbHandle, "prepared">,
  name: string,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any joins over `listings as l`
  query: SelectQueryBuilder<any, "l", R>,
): RowsByUrl<R> {
  const text = query
    .where(sql<boolean>`l.url_normalized = any(${sql.val([])}::text[])`)
    .orderBy(sql`l.is_active`, "asc")
    .orderBy(sql`l.last_seen_at`, "asc")
    .compile().sql;
  return coalesce(async (urls: readonly string[]) => {
    const rows = await handle.prepared.execute(name, CompiledQuery.raw(text, [[...new Set(urls)]]) as CompiledQuery<R>);
    const byUrl = new Map(rows.map((r) => [r.url_normalized, r])); // later rows win
    return urls.map((u) => byUrl.get(u));
  });
}
