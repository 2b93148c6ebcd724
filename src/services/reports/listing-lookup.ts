import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { normalizeUrl } from "../../lib/url-normalize.js";
import { createUrlLookup } from "../catalog/listing-queries.js";
import { selectReportRows, type ReportRow } from "../signals/listing-row.js";

/** Catalogued listings by normalized URL; a URL missing from the map is not catalogued. */
export type CatalogRows = ReadonlyMap<string, ReportRow>;

/**
 * The catalog rows of some URLs (normalized here) for the preflight routes and forensics: one
 * read, nothing else (no probe, no write), so a paid route may start it before the payment is
 * settled.
 */
export type FindListings = (urls: readonly string[]) => Promise<CatalogRows>;

export function createFindListings(db: Kysely<Database>): FindListings {
  const lookup = createUrlLookup(db, "listing-rows", selectReportRows(db));
  return async (urls) => {
    const normalized = [...new Set(urls.map(normalizeUrl))];
    const rows = await Promise.all(normalized.map(lookup));
    const found = new Map<string, ReportRow>();
    normalized.forEach((url, i) => rows[i] && found.set(url, rows[i]));
    return found;
  };
}
