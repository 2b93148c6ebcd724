import { sql, type Kysely } from "kysely";
import type { Database, ProbeOutcome } from "../../db/schema.js";

export interface ProbeRow {
  listingId: number;
  at: Date;
  outcome: ProbeOutcome;
  statusCode: number | null;
  errorKind: string | null;
  latencyMs: number | null;
  priceUsdc: string | null;
}

const values = (rows: readonly ProbeRow[]) =>
  sql.join(
    rows.map(
      (r) =>
        sql`(${r.listingId}::bigint, ${r.at}::timestamptz, ${r.outcome}::text, ${r.statusCode}::integer, ${r.errorKind}::text, ${r.latencyMs}::integer, ${r.priceUsdc}::numeric)`,
    ),
  );

/**
 * Inserts raw probes, skipping any whose (listing, time) is already stored: a probe's identity
 * is its listing and instant, so importing the same history twice adds nothing. Returns the
 * rows actually inserted (the ones to fold into the hourly rollups).
 */
export async function insertNewProbes(db: Kysely<Database>, rows: readonly ProbeRow[]): Promise<ProbeRow[]> {
  const unique = new Map(rows.map((r) => [`${r.listingId}@${r.at.getTime()}`, r]));
  if (unique.size === 0) return [];
  const result = await sql<{ listing_id: number; probed_at: Date }>`
    insert into probes (listing_id, probed_at, outcome, status_code, error_kind, latency_ms, price_usdc)
    select v.listing_id, v.probed_at, v.outcome, v.status_code, v.error_kind, v.latency_ms, v.price_usdc
    from (values ${values([...unique.values()])}) as v(listing_id, probed_at, outcome, status_code, error_kind, latency_ms, price_usdc)
    where not exists (select 1 from probes as p where p.listing_id = v.listing_id and p.probed_at = v.probed_at)
    returning listing_id, probed_at`.execute(db);
  return result.rows.map((r) => unique.get(`${r.listing_id}@${new Date(r.probed_at).getTime()}`)!);
}

export { values as probeValues };

/** A probe as the prober stores it (src/services/probes/types.ts ProbeResult). */
interface ProbeWrite extends Omit<ProbeRow, "at"> {
  probedAt: Date;
  challengeVersion: number | null;
  /** quote_terms.digest of the challenge's terms (src/services/quotes/record.ts stores them). */
  quoteDigest: string | null;
  profile: string;
}

/** The prober's write batch as one multi-row insert (column arrays: one statement whatever its size), a named CTE. */
export const probesInsert = (name: string, r: readonly ProbeWrite[]) => sql`${sql.id(name)} as (
  insert into probes (listing_id, probed_at, outcome, status_code, error_kind, latency_ms, price_usdc, challenge_version, quote_digest, profile)
  select * from unnest(
    ${r.map((p) => p.listingId)}::bigint[], ${r.map((p) => p.probedAt.toISOString())}::timestamptz[], ${r.map((p) => p.outcome)}::text[],
    ${r.map((p) => p.statusCode)}::integer[], ${r.map((p) => p.errorKind)}::text[], ${r.map((p) => p.latencyMs)}::integer[],
    ${r.map((p) => p.priceUsdc)}::numeric[], ${r.map((p) => p.challengeVersion)}::smallint[],
    ${r.map((p) => p.quoteDigest)}::text[], ${r.map((p) => p.profile)}::text[])
  returning 1
)`;
