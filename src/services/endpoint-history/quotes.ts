import { atomicToUsdc } from "@x402-lookout/contracts/usdc";
import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { isCanonicalUsdc } from "../../lib/assets.js";
import type { QuoteSpan } from "./types.js";

/** A page shows the newest spans; an endpoint that changes terms every probe would otherwise list thousands. */
export const QUOTE_SPANS_SHOWN = 30;

/** The listing's terms as the catalog and the prober's challenges named them, newest first (listing_quotes spans). */
export async function quotesOf(db: Kysely<Database>, listingId: number): Promise<QuoteSpan[]> {
  const { rows } = await sql<{
    source: string;
    profile: string;
    network: string;
    asset: string | null;
    pay_to: string | null;
    amount: string;
    malformed: string | null;
    first_seen_at: Date;
    last_seen_at: Date;
    seen: number;
    disputed: boolean;
  }>`
    select q.source, q.profile, t.network, t.asset, t.pay_to, t.amount::text as amount, t.malformed, q.first_seen_at, q.last_seen_at, q.seen,
           -- A source's current claim that the endpoint's own challenge contradicts (decision 0032).
           coalesce(q.source = 'catalog' and exists (
             select 1 from signal_snapshots s, jsonb_array_elements(coalesce(s.detail -> 'quote' -> 'catalog' -> 'disagreeing', '[]'::jsonb)) as d
             where s.listing_id = q.listing_id and d ->> 'source' = q.profile
               and lower(coalesce(d ->> 'payTo', '')) = lower(coalesce(t.pay_to, '')) and coalesce(d ->> 'amount', '') = t.amount::text
           ), false) as disputed
    from listing_quotes q join quote_terms t using (digest)
    where q.listing_id = ${listingId}
    order by q.last_seen_at desc, q.first_seen_at desc, q.source, q.profile
    limit ${QUOTE_SPANS_SHOWN}`.execute(db);
  return rows.map((r) => ({
    source: r.source,
    profile: r.profile,
    network: r.network,
    asset: r.asset,
    payTo: r.pay_to,
    amount: r.amount,
    // A malformed quote's amount is what a client would sign ("0" when none can): never shown as a price.
    priceUsdc: r.malformed === null && isCanonicalUsdc(r.network, r.asset) && /^\d+$/.test(r.amount) ? atomicToUsdc(BigInt(r.amount)) : null,
    malformed: r.malformed,
    firstSeenAt: new Date(r.first_seen_at),
    lastSeenAt: new Date(r.last_seen_at),
    seen: Number(r.seen),
    disputed: Boolean(r.disputed),
  }));
}
