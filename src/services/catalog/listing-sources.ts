import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { ParsedListing } from "./types.js";

const TERMS = sql.raw(`x(listing_id bigint, method text, price_atomic numeric, price_usdc numeric, currency text, network text,
  asset text, pay_to text, x402_version smallint, l30d_calls bigint, l30d_unique_payers bigint, last_called_at timestamptz)`);
const COLUMNS = [
  "method",
  "price_atomic",
  "price_usdc",
  "currency",
  "network",
  "asset",
  "pay_to",
  "x402_version",
  "l30d_calls",
  "l30d_unique_payers",
  "last_called_at",
];

/**
 * Records that `sourceId` lists the batch's listings and what it says of each (one statement,
 * in listing id order, the lock order of every writer). A sighting lists the listing again,
 * unless the source is past its grace (`relist` false). Listings written for no registered
 * source (seeds, tools) get no row, so they are never the catalog's to retire.
 */
export async function recordListingSources(
  db: Kysely<Database>,
  sourceId: string,
  batch: readonly ParsedListing[],
  written: ReadonlyArray<{ id: number; url_normalized: string; method: string }>,
  now: Date,
  relist = true,
): Promise<void> {
  const byKey = new Map(batch.map((l) => [`${l.method} ${l.urlNormalized}`, l]));
  const rows = written
    .map((w) => ({ w, l: byKey.get(`${w.method} ${w.url_normalized}`) }))
    .filter((r): r is { w: (typeof written)[number]; l: ParsedListing } => r.l !== undefined)
    .sort((a, b) => Number(a.w.id) - Number(b.w.id))
    .map(({ w, l }) => ({
      listing_id: Number(w.id),
      method: l.method,
      price_atomic: l.priceAtomic,
      price_usdc: l.priceUsdc,
      currency: l.currency,
      network: l.network,
      asset: l.asset,
      pay_to: l.payTo,
      x402_version: l.x402Version,
      l30d_calls: l.l30dCalls,
      l30d_unique_payers: l.l30dUniquePayers,
      last_called_at: l.lastCalledAt,
    }));
  if (rows.length === 0) return;
  const cols = sql.raw(COLUMNS.join(", "));
  const fromX = sql.raw(COLUMNS.map((c) => `x.${c}`).join(", "));
  const setExcluded = sql.raw(COLUMNS.map((c) => `${c} = excluded.${c}`).join(", "));
  await sql`
    insert into listing_sources (listing_id, source_id, ${cols}, first_seen_at, last_seen_at, listed)
    select x.listing_id, ${sourceId}, ${fromX}, ${now}, ${now}, ${relist}::boolean
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as ${TERMS}
    where exists (select 1 from catalog_sources where id = ${sourceId})
    on conflict (listing_id, source_id) do update set ${setExcluded},
      last_seen_at = greatest(listing_sources.last_seen_at, excluded.last_seen_at), listed = listing_sources.listed or excluded.listed`.execute(db);
}
