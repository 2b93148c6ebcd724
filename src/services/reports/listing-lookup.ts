import type { DbHandle } from "../../db/client.js";
import { createReportRowCache, type ReportRowCache } from "../../db/read-models/report-row-cache.js";
import { createRowsByUrl } from "../../db/read-models/rows-by-url.js";
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
