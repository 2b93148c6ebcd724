import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { normalizeUrl } from "../../lib/url-normalize.js";
import { createUrlLookup } from "../catalog/listing-queries.js";
import { selectReportRows, type ReportRow } from "../signals/listing-row.js";

/** Catalogued listings by URL as the caller gave it; a URL missing from the map is not catalogued. */
export type CatalogRows = ReadonlyMap<string, ReportRow>;

/**
 * The catalog rows of some URLs for the preflight routes and forensics: one read, nothing else
 * (no probe, no write), so a paid route may start it before the payment is settled. Each URL is
 * normalized once, here; the rows come back under the URLs as given.
 */
export type FindListings = (urls: readonly string[]) => Promise<CatalogRows>;

export function createFindListings(db: Kysely<Database>): FindListings {
  const lookup = createUrlLookup(db, "listing-rows", selectReportRows(db));
  return async (urls) => {
    const given = [...new Set(urls)];
    const rows = await Promise.all(given.map((url) => lookup(normalizeUrl(url))));
    const found = new Map<string, ReportRow>();
    given.forEach((url, i) => rows[i] && found.set(url, rows[i]));
    return found;
  };
}
