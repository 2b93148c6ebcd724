import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { tryNormalizeHttpUrl } from "../../lib/url-normalize.js";
import type { CatalogSource } from "./source-spec.js";

/** A source row renamed in place: `from` was its id, `to` is the configured one now. */
export interface Adoption {
  from: string;
  to: string;
  url: string;
}

const sameUrl = (url: string) => tryNormalizeHttpUrl(url) ?? url;

/**
 * A configured discovery source whose id has no row yet adopts the row of a source that is no
 * longer configured and polls the same URL (normalised): its entry gained, lost or changed its
 * `id=` (decision 0038). Adopting keeps its listings, polls and history instead of leaving them
 * to wait out the grace period. With several such rows, the one that succeeded last is adopted.
 */
export async function adoptRenamedSources(db: Kysely<Database>, sources: readonly CatalogSource[]): Promise<Adoption[]> {
  const wanted = sources.filter((s) => s.kind === "bazaar");
  if (wanted.length === 0) return [];
  const configured = new Set(sources.map((s) => s.id));
  const rows = await db.selectFrom("catalog_sources").select(["id", "url", "last_success_at", "created_at"]).where("kind", "=", "bazaar").execute();
  const existing = new Set(rows.map((r) => r.id));
  const lastGood = (r: (typeof rows)[number]) => (r.last_success_at ?? r.created_at).getTime();
  const orphans = rows.filter((r) => !configured.has(r.id)).sort((a, b) => lastGood(b) - lastGood(a) || (a.id < b.id ? -1 : 1));
  const adopted: Adoption[] = [];
  for (const s of wanted) {
    const orphan = existing.has(s.id) ? undefined : orphans.find((o) => sameUrl(o.url) === sameUrl(s.url) && !adopted.some((a) => a.from === o.id));
    if (orphan && (await renameSource(db, orphan.id, s.id))) adopted.push({ from: orphan.id, to: s.id, url: s.url });
  }
  return adopted;
}

/**
 * Renames a source row; its polls and listing rows follow by the foreign keys (migration 0026),
 * its catalog quotes (profile = source id) here. False when another process took `to` first.
 */
async function renameSource(db: Kysely<Database>, from: string, to: string): Promise<boolean> {
  try {
    return await db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ id: string }>`
        update catalog_sources set id = ${to}
        where id = ${from} and not exists (select 1 from catalog_sources where id = ${to})
        returning id`.execute(trx);
      if (rows.length === 0) return false;
      await sql`
        update listing_quotes as q set profile = ${to}
        where q.source = 'catalog' and q.profile = ${from} and not exists (
          select 1 from listing_quotes as o where o.listing_id = q.listing_id and o.source = 'catalog' and o.profile = ${to} and o.digest = q.digest)`.execute(
        trx,
      );
      return true;
    });
  } catch (err) {
    // SQLSTATE 23505: a concurrent ingester registered `to` as a new source just now.
    if ((err as { code?: string } | null)?.code === "23505") return false;
    throw err;
  }
}
