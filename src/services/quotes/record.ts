import { sql, type Kysely } from "kysely";
import { requirementDigest, type QuoteTerms } from "@x402-lookout/contracts/quote";
import type { Database, QuoteSource } from "../../db/schema.js";

/** One reading of a listing's terms: a probe's challenge, or the catalog's listing. */
export interface QuoteSighting {
  listingId: number;
  at: Date;
  source: QuoteSource;
  profile: string;
  /** The vantage that saw the terms (decision 0048); absent: 'default'. */
  vantage?: string;
  terms: QuoteTerms;
  /** The terms' digest, when the caller has it already. */
  digest?: string | null;
}

interface Span {
  s: QuoteSighting;
  digest: string;
  first: Date;
  last: Date;
  seen: number;
}

/** The sightings folded per listing, source, profile and terms, in key order (the lock order of every writer). */
async function spans(sightings: readonly QuoteSighting[]): Promise<Span[]> {
  const byKey = new Map<string, Span>();
  const digests = await Promise.all(sightings.map((s) => s.digest ?? requirementDigest(s.terms)));
  sightings.forEach((s, i) => {
    const key = [s.listingId, s.source, s.profile, s.vantage ?? "default", digests[i]].join("\u0000");
    const span = byKey.get(key);
    if (!span) byKey.set(key, { s, digest: digests[i]!, first: s.at, last: s.at, seen: 1 });
    else Object.assign(span, { first: s.at < span.first ? s.at : span.first, last: s.at > span.last ? s.at : span.last, seen: span.seen + 1 });
  });
  const sortKey = (x: Span) => [String(x.s.listingId).padStart(20, "0"), x.s.source, x.s.profile, x.s.vantage ?? "default", x.digest].join("\u0000");
  return [...byKey.values()].sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : 1));
}

/**
 * Stores the terms once by digest and widens each listing's span of them, in one statement.
 * A span only grows: an older sighting arriving late moves first_seen_at back.
 */
export async function recordQuotes(db: Kysely<Database>, sightings: readonly QuoteSighting[]): Promise<void> {
  if (sightings.length === 0) return;
  const rows = await spans(sightings);
  const t = rows.map((r) => r.s.terms);
  await sql`
    with terms as (
      insert into quote_terms (digest, x402_version, scheme, network, asset, pay_to, amount, resource_url, max_timeout_seconds, malformed, first_seen_at)
      select distinct on (digest) * from unnest(
        ${rows.map((r) => r.digest)}::text[], ${t.map((x) => x.x402Version)}::smallint[], ${t.map((x) => x.scheme)}::text[],
        ${t.map((x) => x.network)}::text[], ${t.map((x) => x.asset)}::text[], ${t.map((x) => x.payTo)}::text[],
        ${t.map((x) => x.amount)}::numeric[], ${t.map((x) => x.resourceUrl)}::text[], ${t.map((x) => x.maxTimeoutSeconds)}::integer[],
        ${t.map((x) => x.malformed)}::text[], ${rows.map((r) => r.first.toISOString())}::timestamptz[]
      ) as v(digest, x402_version, scheme, network, asset, pay_to, amount, resource_url, max_timeout_seconds, malformed, first_seen_at)
      order by digest
      on conflict (digest) do nothing
      returning 1
    )
    insert into listing_quotes (listing_id, source, profile, vantage, digest, first_seen_at, last_seen_at, seen)
    select * from unnest(
      ${rows.map((r) => r.s.listingId)}::bigint[], ${rows.map((r) => r.s.source)}::text[], ${rows.map((r) => r.s.profile)}::text[], ${rows.map((r) => r.s.vantage ?? "default")}::text[],
      ${rows.map((r) => r.digest)}::text[], ${rows.map((r) => r.first.toISOString())}::timestamptz[],
      ${rows.map((r) => r.last.toISOString())}::timestamptz[], ${rows.map((r) => r.seen)}::integer[]
    )
    on conflict (listing_id, source, profile, vantage, digest) do update set
      first_seen_at = least(listing_quotes.first_seen_at, excluded.first_seen_at),
      last_seen_at = greatest(listing_quotes.last_seen_at, excluded.last_seen_at),
      seen = listing_quotes.seen + excluded.seen`.execute(db);
}

/** The sightings of a prober's write batch (probe records, their terms' digests): every probe that read a challenge. */
export const probeSightings = (
  probes: ReadonlyArray<{ listingId: number; probedAt: Date; profile: string | null; quote: QuoteTerms | null; vantage?: string }>,
  digests: ReadonlyArray<string | null>,
): QuoteSighting[] =>
  probes.flatMap((p, i) =>
    p.quote && p.profile !== null
      ? [
          {
            listingId: p.listingId,
            at: p.probedAt,
            source: "probe" as const,
            profile: p.profile,
            vantage: p.vantage,
            terms: p.quote,
            digest: digests[i] ?? null,
          },
        ]
      : [],
  );
