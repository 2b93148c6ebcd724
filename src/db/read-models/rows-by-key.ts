import { CompiledQuery, sql, type SelectQueryBuilder } from "kysely";
import type { DbHandle } from "../client.js";
import { coalesce } from "../coalesce.js";
import { groupBy } from "../../lib/group-by.js";

/** The listings' rows of one match key (packages/contracts/src/url-match.ts); empty: none catalogued. */
export type RowsByKey<R> = (matchKey: string) => Promise<R[]>;

/**
 * Rows of `query` (over `listings as l`, selecting `match_key`) by match key: the lookups of one
 * event-loop turn share one indexed statement (coalesce), one SQL text whatever the count (the
 * keys go in as one array), run as the handle's prepared statement `name`. A key's rows come
 * active first, then the most recently seen: the order the URL matcher breaks its last tie by.
 */
export function createRowsByKey<R extends { match_key: string }>(
  handle: Pick<DbHandle, "prepared">,
  name: string,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any joins over `listings as l`
  query: SelectQueryBuilder<any, "l", R>,
): RowsByKey<R> {
  const text = query
    .where(sql<boolean>`l.match_key = any(${sql.val([])}::text[])`)
    .orderBy(sql`l.is_active`, "desc")
    .orderBy(sql`l.last_seen_at`, "desc")
    .compile().sql;
  return coalesce(async (keys: readonly string[]) => {
    const rows = await handle.prepared.execute(name, CompiledQuery.raw(text, [[...new Set(keys)]]) as CompiledQuery<R>);
    const byKey = groupBy(rows, (r) => r.match_key);
    return keys.map((k) => byKey.get(k) ?? []);
  });
}
