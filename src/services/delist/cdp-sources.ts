import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { isCdpCatalog } from "../catalog/source-spec.js";

/**
 * The ids of the sources that are CDP's own catalog (decision 0038): `cdp_listed` speaks of
 * that catalog, not of any. Known by the address polled, so a source keeps counting as CDP's
 * whatever id the configuration gives it.
 */
export async function cdpSourceIds(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom("catalog_sources").select(["id", "url", "kind"]).where("kind", "=", "bazaar").execute();
  return rows.filter(isCdpCatalog).map((r) => r.id);
}
