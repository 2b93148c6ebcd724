import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { SourceTerms } from "./source-claims.js";

interface Row {
  listing_id: number;
  source_id: string;
  kind: string;
  network: string | null;
  asset: string | null;
  pay_to: string | null;
  price_atomic: string | null;
  price_usdc: string | null;
  first_seen_at: Date | string;
}

/** What each source that lists each listing now says of it (one indexed read); settled in source-claims.ts. */
export async function catalogTerms(db: Kysely<Database>, listingIds: readonly number[]): Promise<Map<number, SourceTerms[]>> {
  const { rows } = await sql<Row>`
    select ls.listing_id, ls.source_id, cs.kind, ls.network, ls.asset, ls.pay_to, ls.price_atomic::text as price_atomic,
           ls.price_usdc::text as price_usdc, ls.first_seen_at
    from listing_sources as ls join catalog_sources as cs on cs.id = ls.source_id
    where ls.listing_id = any(${[...listingIds]}::bigint[]) and ls.listed`.execute(db);
  const byListing = new Map<number, SourceTerms[]>();
  for (const r of rows) {
    const terms: SourceTerms = {
      source: r.source_id,
      kind: r.kind === "manifest" ? "manifest" : "bazaar",
      network: r.network,
      asset: r.asset,
      payTo: r.pay_to,
      amount: r.price_atomic,
      priceUsdc: r.price_usdc,
      firstSeenAt: new Date(r.first_seen_at),
    };
    byListing.set(Number(r.listing_id), [...(byListing.get(Number(r.listing_id)) ?? []), terms]);
  }
  return byListing;
}
