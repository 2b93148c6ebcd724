import { sql, type Kysely } from "kysely";
import { requirementDigest } from "@x402-lookout/contracts/quote";
import type { Database } from "../../db/schema.js";
import type { ProbeRecord } from "./probe-record.js";

const COLUMNS = sql`listing_id, probed_at, outcome, status_code, error_kind, latency_ms, price_usdc, challenge_version, quote_digest, profile, vantage`;

/** quote_terms.digest of each record's terms (src/services/quotes/record.ts stores the terms). */
export const quoteDigests = (r: readonly ProbeRecord[]): Promise<Array<string | null>> =>
  Promise.all(r.map((p) => (p.quote ? requirementDigest(p.quote) : null)));

/** Records as rows of `probes`, `v`: column arrays, so a batch is one statement whatever its size. */
export const probeRows = (r: readonly ProbeRecord[], digests: ReadonlyArray<string | null> = r.map(() => null)) => sql`unnest(
    ${r.map((p) => p.listingId)}::bigint[], ${r.map((p) => p.probedAt.toISOString())}::timestamptz[], ${r.map((p) => p.outcome)}::text[],
    ${r.map((p) => p.statusCode)}::integer[], ${r.map((p) => p.errorKind)}::text[], ${r.map((p) => p.latencyMs)}::integer[],
    ${r.map((p) => p.priceUsdc)}::numeric[], ${r.map((p) => p.challengeVersion)}::smallint[],
    ${[...digests]}::text[], ${r.map((p) => p.profile)}::text[], ${r.map((p) => p.vantage ?? "default")}::text[]) as v(${COLUMNS})`;

/** The prober's write batch as one insert, a named CTE (its statement also ends the batch's leases). */
export const probesInsert = (name: string, r: readonly ProbeRecord[], digests: ReadonlyArray<string | null>) => sql`${sql.id(name)} as (
  insert into probes (${COLUMNS}) select * from ${probeRows(r, digests)}
  returning 1
)`;

/**
 * Inserts probes, skipping any whose (listing, time) is already stored: a probe's identity
 * is its listing and instant, so importing the same history twice adds nothing. Returns the
 * records actually inserted (the ones to add to the hourly rollups).
 */
export async function insertNewProbes(db: Kysely<Database>, records: readonly ProbeRecord[]): Promise<ProbeRecord[]> {
  const unique = new Map(records.map((r) => [`${r.listingId}@${r.probedAt.getTime()}`, r]));
  if (unique.size === 0) return [];
  const list = [...unique.values()];
  const result = await sql<{ listing_id: number; probed_at: Date }>`
    insert into probes (${COLUMNS})
    select v.* from ${probeRows(list, await quoteDigests(list))}
    where not exists (select 1 from probes as p where p.listing_id = v.listing_id and p.probed_at = v.probed_at)
    returning listing_id, probed_at`.execute(db);
  return result.rows.map((r) => unique.get(`${r.listing_id}@${new Date(r.probed_at).getTime()}`)!);
}
