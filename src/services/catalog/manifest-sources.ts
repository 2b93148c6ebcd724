import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { CatalogSource } from "./source-spec.js";

/** The id of the manifest source of an origin. */
export const manifestSourceId = (origin: string): string => `manifest:${origin}`;

/**
 * The manifest sources of now: one per origin (scheme and host) that the configured sources
 * list a listing on. New ones get their row, due at once. A manifest's own listings do not
 * name origins, so a manifest never keeps itself alive.
 */
export async function manifestSources(db: Kysely<Database>, configuredIds: readonly string[], now: Date): Promise<CatalogSource[]> {
  if (configuredIds.length === 0) return [];
  const { rows } = await sql<{ origin: string }>`
    select distinct substring(l.url_normalized from '^https?://[^/?#]+') as origin
    from listing_sources as s join listings as l on l.id = s.listing_id
    where s.source_id = any(${[...configuredIds]}::text[]) and s.listed
    order by 1`.execute(db);
  const sources = rows.filter((r) => r.origin !== null).map((r) => ({ id: manifestSourceId(r.origin), url: r.origin, kind: "manifest" as const }));
  if (sources.length === 0) return [];
  await db
    .insertInto("catalog_sources")
    .values(sources.map((s) => ({ id: s.id, url: s.url, kind: s.kind, created_at: now, next_poll_at: now })))
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
  return sources;
}
