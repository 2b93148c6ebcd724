import type { Kysely } from "kysely";
import type { Notifications } from "../../db/notifications.js";
import type { Database } from "../../db/schema.js";
import { normalizeUrl } from "../../lib/url-normalize.js";
import { createUrlLookup } from "../catalog/listing-queries.js";
import { selectReportRows, type ReportRow } from "../signals/listing-row.js";
import { createReportRowCache, type ReportRowCache } from "./report-row-cache.js";

/** Catalogued listings by URL as the caller gave it; a URL missing from the map is not catalogued. */
export type CatalogRows = ReadonlyMap<string, ReportRow>;

/**
 * The catalog rows of some URLs for the preflight routes and forensics: one read, nothing else
 * (no probe, no write), so a paid route may start it before the payment is settled. Each URL is
 * normalized once, here; the rows come back under the URLs as given.
 */
export type FindListings = ((urls: readonly string[]) => Promise<CatalogRows>) & { cache: ReportRowCache };

/** Rows come from this process's report-row cache, else from one indexed statement per event-loop turn. */
export function createFindListings(db: Kysely<Database>, notifications: Notifications, cacheRows: number): FindListings {
  const cache = createReportRowCache({
    lookup: createUrlLookup(db, "listing-rows", selectReportRows(db)),
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
    notifications,
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
