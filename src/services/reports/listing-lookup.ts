import type { Kysely } from "kysely";
import type { DbHandle } from "../../db/client.js";
import { createReportRowCache, type ReportRowCache } from "../../db/read-models/report-row-cache.js";
import { createRowsByUrl } from "../../db/read-models/rows-by-url.js";
import type { Database } from "../../db/schema.js";
import { normalizeUrl } from "../../lib/url-normalize.js";
import { selectReportRows, type ReportRow } from "../signals/listing-row.js";

/** Catalogued listings by URL as the caller gave it; a URL missing from the map is not catalogued. */
export type CatalogRows = ReadonlyMap<string, ReportRow>;

/**
 * The catalog rows of some URLs for the preflight routes and forensics: one read, nothing else
 * (no probe, no write). Each URL is normalized once, here; the rows come back under the URLs as
 * given.
 */
export type FindListings = ((urls: readonly string[]) => Promise<CatalogRows>) & { cache: ReportRowCache<ReportRow> };

/** Rows come from this process's report-row cache, else from one indexed statement per event-loop turn. */
export function createFindListings(handle: Pick<DbHandle, "db" | "prepared" | "notifications">, cacheRows: number): FindListings {
  const { db } = handle;
  const cache = createReportRowCache({
    lookup: createRowsByUrl(handle, "listing-rows", selectReportRows(db)),
    // The row the lookup picks for a URL: active, then the most recently seen.
    scan: (after, limit) =>
      selectReportRows(db)
        .distinctOn("l.url_normalized")
        .where("l.is_active", "=", true)
        .$if(after !== undefined, (q) => q.where("l.url_normalized", ">", after!))
        .orderBy("l.url_normalized")
        .orderBy("l.last_seen_at", "desc")
        .limit(limit)
        .execute(),
    notifications: handle.notifications,
    maxRows: cacheRows,
  });
  const find = async (urls: readonly string[]) => {
    const given = [...new Set(urls)];
    const rows = await Promise.all(given.map((url) => cache.get(normalizeUrl(url))));
    const found = new Map<string, ReportRow>();
    given.forEach((url, i) => rows[i] && found.set(url, rows[i]));
    return found;
  };
  return Object.assign(find, { cache });
}

/** What the host checks say about a host (the columns a report row carries), for URLs the catalog does not list as active. */
export type HostFacts = Pick<
  ReportRow,
  "wildcard_402_detected" | "wildcard_402_checked_at" | "spa_fallback_detected" | "spa_fallback_checked_at" | "effective_count_basis"
>;

/** The host checks of some hosts (URL.host, the key catalog rows join on), by host. */
export async function hostFactsOf(db: Kysely<Database>, hosts: readonly string[]): Promise<ReadonlyMap<string, HostFacts>> {
  if (hosts.length === 0) return new Map();
  const rows = await db
    .selectFrom("host_checks")
    .select(["host", "wildcard_402_detected", "wildcard_402_checked_at", "spa_fallback_detected", "spa_fallback_checked_at", "effective_count_basis"])
    .where("host", "in", [...new Set(hosts)])
    .execute();
  return new Map(rows.map(({ host, ...facts }) => [host, facts]));
}

/** The method of the URL's catalog listing (an inactive one, for a live probe), the most recently seen first. */
export async function catalogMethod(db: Kysely<Database>, urlNormalized: string): Promise<string | null> {
  const row = await db
    .selectFrom("listings")
    .select("method")
    .where("url_normalized", "=", urlNormalized)
    .orderBy("is_active", "desc")
    .orderBy("last_seen_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.method ?? null;
}
