import { sql, type SelectQueryBuilder } from "kysely";
import { matchKey, pickListing, type MatchCandidate, type MatchedBy } from "@x402-lookout/contracts/url-match";
import { groupBy } from "../../lib/group-by.js";

/** What is looked up: a URL as an agent sends it, and the method when known. */
export interface LookupTarget {
  url: string;
  method?: string | undefined;
}

/** A listing's row as a request URL reached it (docs/signals.md "How a URL is matched"). */
export type Matched<R> = R & { matched_by: MatchedBy };

/**
 * Each target's listing, by the one URL matcher (packages/contracts/src/url-match.ts), under the
 * URL as given: the rows of its match key, else the route templates of its host, read once for
 * every URL no address matched. A URL missing from the map is not catalogued.
 */
export async function matchRows<R extends MatchCandidate>(
  asked: ReadonlyArray<string | LookupTarget>,
  rowsOfKey: (key: string) => Promise<readonly R[]>,
  templatesOf: (hosts: readonly string[]) => Promise<ReadonlyMap<string, readonly R[]>>,
): Promise<Map<string, Matched<R>>> {
  const targets = asked.map((t) => (typeof t === "string" ? { url: t } : t));
  const found = new Map<string, Matched<R>>();
  const pick = (t: LookupTarget, rows: readonly R[]) => {
    const m = found.has(t.url) ? undefined : pickListing(t, rows);
    if (m) found.set(t.url, { ...m.listing, matched_by: m.by });
  };
  // Each URL parsed once for its key; one that is not an absolute http(s) URL matches nothing.
  const keyed = targets.flatMap((t) => {
    const key = matchKey(t.url);
    return key === undefined ? [] : [{ t, key }];
  });
  const groups = await Promise.all(keyed.map(({ key }) => rowsOfKey(key)));
  keyed.forEach(({ t }, i) => pick(t, groups[i]!));
  const missed = keyed.map(({ t }) => t).filter((t) => !found.has(t.url));
  if (missed.length === 0) return found;
  const templates = await templatesOf(missed.map((t) => new URL(t.url).host));
  for (const t of missed) pick(t, templates.get(new URL(t.url).host) ?? []);
  return found;
}

/**
 * The route-template listings of some hosts by `query` (over `listings as l`): few per host,
 * read only for URLs no address matched; active first, then the most recently seen.
 */
export function templatesByHost<R>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any joins over `listings as l`
  query: SelectQueryBuilder<any, "l", R>,
): (hosts: readonly string[]) => Promise<ReadonlyMap<string, R[]>> {
  return async (hosts) => {
    const rows = (await query
      .select(sql<string>`l.host`.as("template_host"))
      .where(sql<boolean>`l.route_template and l.host = any(${[...new Set(hosts)]}::text[])`)
      .orderBy(sql`l.is_active`, "desc")
      .orderBy(sql`l.last_seen_at`, "desc")
      .execute()) as Array<R & { template_host: string }>;
    return groupBy(rows, (r) => r.template_host);
  };
}
