import { sql, type Kysely } from "kysely";
import { canonicalAddress } from "@x402-lookout/contracts/quote";
import type { Database } from "../../db/schema.js";
import { canonicalNetwork } from "../../lib/assets.js";
import type { CatalogTerms } from "./types.js";

interface SourceTerms {
  listing_id: number;
  network: string | null;
  asset: string | null;
  pay_to: string | null;
  price_atomic: string | null;
}

/** How far the sources that list each listing now agree on payee and price (one indexed read). */
export async function catalogTerms(db: Kysely<Database>, listingIds: readonly number[]): Promise<Map<number, CatalogTerms>> {
  const { rows } = await sql<SourceTerms>`
    select listing_id, network, asset, pay_to, price_atomic::text as price_atomic
    from listing_sources where listing_id = any(${[...listingIds]}::bigint[]) and listed`.execute(db);
  const byListing = new Map<number, SourceTerms[]>();
  for (const r of rows) byListing.set(Number(r.listing_id), [...(byListing.get(Number(r.listing_id)) ?? []), r]);
  return new Map([...byListing].map(([id, terms]) => [id, agreement(terms)]));
}

/** Prices compare only within one network and asset; addresses compare case-blind where the network allows. */
export function agreement(terms: readonly Omit<SourceTerms, "listing_id">[]): CatalogTerms {
  const payTos = new Set(terms.flatMap((t) => (t.pay_to === null ? [] : [canonicalAddress(t.pay_to)])));
  const prices = new Map<string, Set<string>>();
  for (const t of terms) {
    if (t.price_atomic === null || t.network === null) continue;
    const money = `${canonicalNetwork(t.network)} ${(t.asset ?? "").toLowerCase()}`;
    prices.set(money, (prices.get(money) ?? new Set()).add(t.price_atomic));
  }
  return { sources: terms.length, payTos: payTos.size, amounts: Math.max(0, ...[...prices.values()].map((p) => p.size)) };
}
