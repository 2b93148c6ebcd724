import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { type ObservedQuote, THRESHOLDS as T } from "../signals/index.js";
import { catalogTerms } from "./catalog-terms.js";
import { observedQuote, withCatalog, type QuoteSpan } from "./observed.js";

/**
 * The quote evidence of a batch of listings: their probe spans of the last 7 days (one indexed
 * read), and what the sources that list them now say (another).
 */
export async function observedQuotes(db: Kysely<Database>, listingIds: readonly number[], now: Date): Promise<Map<number, ObservedQuote | null>> {
  const since = new Date(now.getTime() - T.payToWindowMs).toISOString();
  const { rows } = await sql<QuoteSpan & { listing_id: number }>`
    select q.listing_id, q.profile, q.vantage, q.first_seen_at, q.last_seen_at,
           t.network, t.asset, t.pay_to, t.amount::text as amount, t.scheme, t.resource_url, t.malformed
    from listing_quotes as q join quote_terms as t using (digest)
    where q.listing_id = any(${[...listingIds]}::bigint[]) and q.source = 'probe'
      and q.last_seen_at > ${since}::timestamptz and q.first_seen_at <= ${now.toISOString()}::timestamptz`.execute(db);
  const byListing = new Map<number, QuoteSpan[]>();
  for (const r of rows) {
    const id = Number(r.listing_id);
    byListing.set(id, [...(byListing.get(id) ?? []), { ...r, first_seen_at: new Date(r.first_seen_at), last_seen_at: new Date(r.last_seen_at) }]);
  }
  const catalog = await catalogTerms(db, listingIds);
  return new Map(listingIds.map((id) => [id, withCatalog(observedQuote(byListing.get(id) ?? [], now), catalog.get(id))]));
}
