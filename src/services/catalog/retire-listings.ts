import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

/**
 * Listings among `ids` that no source lists any more leave the active catalog. A listing no
 * source ever recorded (seeded, imported) is not the catalog's to retire. Returns how many left.
 */
export async function retireUnlisted(db: Kysely<Database>, ids: readonly number[], now: Date): Promise<number> {
  if (ids.length === 0) return 0;
  const { rows } = await sql<{ id: number }>`
    update listings as l set is_active = false, deactivated_at = ${now}, updated_at = ${now}
    where l.id = any(${[...new Set(ids)].sort((a, b) => a - b)}::bigint[]) and l.is_active
      and not exists (select 1 from listing_sources as s where s.listing_id = l.id and s.listed)
    returning l.id`.execute(db);
  return rows.length;
}

/**
 * After a complete poll of `sourceId`: it no longer lists what the poll did not see (every
 * sighting moved last_seen_at to the poll's start or later), except listings whose item came
 * malformed this time (`keep`, normalised URLs): garbage is not absence. Those listings leave
 * the catalog unless another source still lists them. Returns how many left.
 */
export async function unlistUnseen(db: Kysely<Database>, sourceId: string, pollStartedAt: Date, now: Date, keep: readonly string[] = []): Promise<number> {
  const { rows } = await sql<{ listing_id: number }>`
    update listing_sources as s set listed = false
    where s.source_id = ${sourceId} and s.listed and s.last_seen_at < ${pollStartedAt}
      and not exists (
        select 1 from listings as l
        where l.id = s.listing_id and l.url_normalized in (select jsonb_array_elements_text(${JSON.stringify(keep)}::jsonb)))
    returning s.listing_id`.execute(db);
  return retireUnlisted(
    db,
    rows.map((r) => Number(r.listing_id)),
    now,
  );
}

/**
 * Sources whose last complete poll (or, never complete, their registration) is older than
 * `graceMs` stop counting: a source removed from the configuration, or one that keeps failing.
 * What they list leaves the catalog unless another source lists it. Returns how many left.
 */
export async function retireStaleSources(db: Kysely<Database>, now: Date, graceMs: number): Promise<number> {
  const cutoff = new Date(now.getTime() - graceMs);
  const { rows } = await sql<{ listing_id: number }>`
    update listing_sources as s set listed = false
    where s.listed and s.source_id in (select id from catalog_sources where coalesce(last_success_at, created_at) < ${cutoff})
    returning s.listing_id`.execute(db);
  return retireUnlisted(
    db,
    rows.map((r) => Number(r.listing_id)),
    now,
  );
}

/** Whether a source counts: its last complete poll (else its registration) is within the grace. */
export async function sourceCounts(db: Kysely<Database>, sourceId: string, now: Date, graceMs: number): Promise<boolean> {
  const { rows } = await sql<{ counts: boolean }>`
    select coalesce(last_success_at, created_at) >= ${new Date(now.getTime() - graceMs)} as counts
    from catalog_sources where id = ${sourceId}`.execute(db);
  return rows[0]?.counts ?? true;
}

/**
 * A complete poll of a source that was past its grace: what it saw (last_seen_at from the
 * poll's start) is listed again and back in the catalog, ids kept. Returns how many came back.
 */
export async function relistSeen(db: Kysely<Database>, sourceId: string, pollStartedAt: Date, now: Date): Promise<number> {
  const { rows } = await sql<{ id: number }>`
    with relisted as (
      update listing_sources set listed = true
      where source_id = ${sourceId} and not listed and last_seen_at >= ${pollStartedAt}
      returning listing_id)
    update listings as l set is_active = true, deactivated_at = null, updated_at = ${now}
    from relisted as r where l.id = r.listing_id and not l.is_active
    returning l.id`.execute(db);
  return rows.length;
}
