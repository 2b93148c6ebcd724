import type { QuoteSighting } from "../quotes/record.js";
import type { ParsedListing } from "./types.js";

/**
 * The terms each catalog listing names (its priced `exact` entry), as sightings of the listings
 * just written: the catalog's side of the quote history (decision 0020), one profile per source
 * (its id), so two sources that disagree keep both terms. Unpriced listings name none.
 */
export function catalogSightings(
  batch: readonly ParsedListing[],
  written: ReadonlyArray<{ id: number; url_normalized: string; method: string }>,
  sourceId: string,
  now: Date,
): QuoteSighting[] {
  const ids = new Map(written.map((w) => [`${w.method} ${w.url_normalized}`, Number(w.id)]));
  return batch.flatMap((l) => {
    const id = ids.get(`${l.method} ${l.urlNormalized}`);
    if (id === undefined || l.priceAtomic === null || l.network === null) return [];
    const terms = {
      x402Version: l.x402Version,
      scheme: "exact",
      network: l.network,
      asset: l.asset,
      payTo: l.payTo,
      amount: l.priceAtomic,
      resourceUrl: l.url,
      maxTimeoutSeconds: null,
      extra: null,
      malformed: null,
    };
    return [{ listingId: id, at: now, source: "catalog" as const, profile: sourceId, terms }];
  });
}
