import type { Kysely } from "kysely";
import type { Database } from "../../../db/schema.js";

const MAX_CACHED = 200_000;

/**
 * Listing ids by (normalised url, method), looked up a batch at a time and remembered: a
 * history file holds many probes of each listing. Unknown keys are remembered as null.
 */
export class ListingIds {
  private readonly cache = new Map<string, number | null>();

  constructor(private readonly db: Kysely<Database>) {}

  static key(urlNormalized: string, method: string): string {
    return `${method} ${urlNormalized}`;
  }

  async resolve(keys: ReadonlyArray<{ urlNormalized: string; method: string }>): Promise<Map<string, number | null>> {
    const missing = keys.filter((k) => !this.cache.has(ListingIds.key(k.urlNormalized, k.method)));
    const urls = [...new Set(missing.map((k) => k.urlNormalized))];
    if (urls.length > 0) {
      if (this.cache.size > MAX_CACHED) this.cache.clear();
      const rows = await this.db.selectFrom("listings").select(["id", "url_normalized", "method"]).where("url_normalized", "in", urls).execute();
      for (const k of missing) this.cache.set(ListingIds.key(k.urlNormalized, k.method), null);
      for (const r of rows) this.cache.set(ListingIds.key(r.url_normalized, r.method), r.id);
    }
    return new Map(keys.map((k) => [ListingIds.key(k.urlNormalized, k.method), this.cache.get(ListingIds.key(k.urlNormalized, k.method)) ?? null]));
  }
}
