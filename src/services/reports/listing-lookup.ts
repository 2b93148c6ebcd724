import type { Kysely } from "kysely";
import type { DbHandle } from "../../db/client.js";
import { matchRows, templatesByHost, type LookupTarget, type Matched } from "../../db/read-models/match-rows.js";
import { createReportRowCache, type ReportRowCache } from "../../db/read-models/report-row-cache.js";
import { createRowsByKey } from "../../db/read-models/rows-by-key.js";
import type { Database } from "../../db/schema.js";
import { selectReportRows, type ReportRow } from "../signals/listing-row.js";
import { groupBy } from "../../lib/group-by.js";

export type { LookupTarget } from "../../db/read-models/match-rows.js";
export type MatchedRow = Matched<ReportRow>;

/** Catalogued listings by URL as the caller gave it; a URL missing from the map is not catalogued. */
export type CatalogRows = ReadonlyMap<string, MatchedRow>;

/** The rows of one match key, as the report-row cache keeps them. */
interface KeyRows {
  key: string;
  ids: number[];
  rows: ReportRow[];
}

/**
 * The catalog rows of some URLs for the preflight routes and forensics: one read, nothing else
 * (no probe, no write). Each URL reaches its listing through the one URL matcher; the rows come
 * back under the URLs as given.
 */
export type FindListings = ((targets: ReadonlyArray<string | LookupTarget>) => Promise<CatalogRows>) & { cache: ReportRowCache<KeyRows> };

const keyRows = (key: string, rows: ReportRow[]): KeyRows | undefined => (rows.length ? { key, ids: rows.map((r) => Number(r.id)), rows } : undefined);

/** A key's rows come from this process's report-row cache, else from one indexed statement per event-loop turn. */
export function createFindListings(handle: Pick<DbHandle, "db" | "prepared" | "notifications">, cacheRows: number): FindListings {
  const { db } = handle;
  const byKey = createRowsByKey(handle, "listing-rows", selectReportRows(db));
  const cache = createReportRowCache<KeyRows>({
    lookup: async (key) => keyRows(key, await byKey(key)),
    // A page of the keys that have an active listing, each with all its rows.
    scan: async (after, limit) => {
      const keys = db
        .selectFrom("listings")
        .select("match_key")
        .distinct()
        .where("is_active", "=", true)
        .$if(after !== undefined, (q) => q.where("match_key", ">", after!))
        .orderBy("match_key")
        .limit(limit);
      const rows = await selectReportRows(db)
        .where("l.match_key", "in", keys)
        .orderBy("l.match_key")
        .orderBy("l.is_active", "desc")
        .orderBy("l.last_seen_at", "desc")
        .execute();
      return [...groupBy(rows, (r) => r.match_key)].map(([key, group]) => keyRows(key, group)!);
    },
    notifications: handle.notifications,
    maxRows: cacheRows,
  });
  const templates = templatesByHost(selectReportRows(db));
  const find = (targets: ReadonlyArray<string | LookupTarget>) => matchRows(targets, async (key) => (await cache.get(key))?.rows ?? [], templates);
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
