import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { firstProbeAt } from "./first-probe.js";
import type { ParsedListing } from "./types.js";
import { catalogSightings } from "./catalog-quotes.js";
import { recordQuotes } from "../quotes/record.js";
import { recordListingSources } from "./listing-sources.js";
import { sourceOf, type CatalogSource } from "./source-spec.js";

export interface UpsertCounts {
  inserted: number;
  reactivated: number;
  updated: number;
}

const keyOf = (urlNormalized: string, method: string) => `${method} ${urlNormalized}`;

/** Columns a sighting sets; the same list, in the same order, in every statement below. */
const CONTENT = [
  "url",
  "service_id",
  "provider_id",
  "host",
  "domain",
  "category",
  "tags",
  "description",
  "price_usdc",
  "price_atomic",
  "currency",
  "network",
  "asset",
  "pay_to",
  "x402_version",
  "resource_type",
  "source_url",
  "l30d_calls",
  "l30d_unique_payers",
  "last_called_at",
  "raw",
] as const;

// The batch travels as one JSON parameter: PostgreSQL takes that far faster than thousands of
// bind parameters, and the statement text stays the same for any batch size.
const RECORDSET = sql.raw(`x(
  url_normalized text, method text, url text, service_id text, provider_id text, host text, domain text, category text,
  tags text[], description text, price_usdc numeric, price_atomic numeric, currency text, network text, asset text,
  pay_to text, x402_version smallint, resource_type text, source_url text, l30d_calls bigint,
  l30d_unique_payers bigint, last_called_at timestamptz, raw jsonb, next_probe_at timestamptz, held boolean)`);
const columns = sql.raw(CONTENT.join(", "));
const fromX = sql.raw(CONTENT.map((c) => (c === "tags" ? "coalesce(x.tags, '{}')" : `x.${c}`)).join(", "));
// A sighting by a source another listed source outranks (`held`) leaves the listing's content as it is.
const setFromX = sql.raw(CONTENT.map((c) => `${c} = case when x.held then l.${c} else ${c === "tags" ? "coalesce(x.tags, '{}')" : `x.${c}`} end`).join(", "));
const setFromExcluded = sql.raw(CONTENT.map((c) => `${c} = excluded.${c}`).join(", "));
const changed = sql.raw(`(not x.held and (${CONTENT.map((c) => `l.${c}`).join(", ")}) is distinct from (${CONTENT.map((c) => `x.${c}`).join(", ")}))`);

// JSON can carry "\u0000" but jsonb and text cannot; strip NUL from the (rare) raw items
// holding one rather than fail the batch. The cheap check may misfire on an escaped backslash
// followed by "u0000"; the slow path is then merely unnecessary.
function stripNul(_key: string, v: unknown): unknown {
  if (typeof v === "string") return v.includes("\0") ? v.replaceAll("\0", "") : v;
  if (v === null || typeof v !== "object" || Array.isArray(v) || !Object.keys(v).some((k) => k.includes("\0"))) return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k.replaceAll("\0", ""), x]));
}
function toJson(rows: unknown[]): string {
  const json = JSON.stringify(rows);
  return json.includes("\\u0000") ? JSON.stringify(rows, stripNul) : json;
}

function record(l: ParsedListing, source: string, now: Date) {
  return {
    url_normalized: l.urlNormalized,
    method: l.method,
    url: l.url,
    service_id: l.serviceId,
    provider_id: l.provider.id,
    host: l.host,
    domain: l.domain,
    category: l.category,
    tags: l.tags,
    description: l.description,
    price_usdc: l.priceUsdc,
    price_atomic: l.priceAtomic,
    currency: l.currency,
    network: l.network,
    asset: l.asset,
    pay_to: l.payTo,
    x402_version: l.x402Version,
    resource_type: l.resourceType,
    source_url: source,
    l30d_calls: l.l30dCalls,
    l30d_unique_payers: l.l30dUniquePayers,
    last_called_at: l.lastCalledAt,
    raw: l.raw,
    next_probe_at: firstProbeAt(now, l.urlNormalized, l.method),
  };
}

/**
 * Upserts one batch of distinct listings by (url_normalized, method) in three set-based
 * statements: read the state of the known ones (for the counts), UPDATE the known ones, INSERT
 * the new ones. (One INSERT ... ON CONFLICT DO UPDATE measured several times slower here than
 * the two plain statements.) The INSERT still resolves conflicts, for a row another ingester
 * inserted in between. first_seen_at and next_probe_at are set on insert only; updated_at moves
 * only when something changed. Services and providers must exist already (foreign keys). The
 * listing's columns follow its most authoritative listed source (outranked below); a sighting by
 * another still keeps it listed. What each source says is kept in listing_sources, and its terms
 * in the quote history under the source's id. Without `relist`
 * (a source past its grace, docs/catalog.md) sightings update what is known but bring nothing
 * back into the active catalog: its complete poll does that (relistSeen).
 */
export async function upsertListings(
  db: Kysely<Database>,
  batch: readonly ParsedListing[],
  entry: string | CatalogSource,
  now: Date,
  relist = true,
): Promise<UpsertCounts> {
  if (batch.length === 0) return { inserted: 0, reactivated: 0, updated: 0 };
  const source = sourceOf(entry);
  // One lock order for every writer: concurrent ingesters cannot deadlock on shared listings.
  const records = batch.map((l) => record(l, source.url, now)).sort((a, b) => (keyOf(a.url_normalized, a.method) < keyOf(b.url_normalized, b.method) ? -1 : 1));
  const keys = JSON.stringify(records.map((r) => ({ url_normalized: r.url_normalized, method: r.method })));
  const { rows: known } = await sql<{
    url_normalized: string;
    method: string;
    is_active: boolean;
    price_atomic: string | null;
    currency: string | null;
    service_id: string;
    provider_id: string | null;
    category: string | null;
    held: boolean;
  }>`
    select l.url_normalized, l.method, l.is_active, l.price_atomic, l.currency, l.service_id, l.provider_id, l.category,
           ${outranked(source, now)} as held
    from listings as l join jsonb_to_recordset(${keys}::jsonb) as k(url_normalized text, method text) using (url_normalized, method)`.execute(db);
  const prev = new Map(known.map((r) => [keyOf(r.url_normalized, r.method), r]));

  const counts: UpsertCounts = { inserted: 0, reactivated: 0, updated: 0 };
  const fresh: Array<(typeof records)[number] & { held?: boolean }> = [];
  const seen: Array<(typeof records)[number] & { held: boolean }> = [];
  for (const r of records) {
    const p = prev.get(keyOf(r.url_normalized, r.method));
    if (!p) {
      if (relist) counts.inserted++;
      fresh.push(r);
      continue;
    }
    seen.push({ ...r, held: p.held });
    if (!p.is_active) counts.reactivated += relist ? 1 : 0;
    else if (p.held) continue;
    else if (
      p.price_atomic !== r.price_atomic ||
      p.currency !== r.currency ||
      p.service_id !== r.service_id ||
      p.provider_id !== r.provider_id ||
      p.category !== r.category
    )
      counts.updated++;
  }
  const written: Array<{ id: number; url_normalized: string; method: string }> = [];
  if (seen.length > 0) {
    const { rows } = await sql<(typeof written)[number]>`
      update listings as l
      set ${setFromX}, last_seen_at = greatest(l.last_seen_at, ${now}), is_active = l.is_active or ${relist}::boolean,
          deactivated_at = case when ${relist}::boolean then null else l.deactivated_at end,
          updated_at = case when (not l.is_active and ${relist}::boolean) or ${changed} then ${now} else l.updated_at end
      from jsonb_to_recordset(${toJson(seen)}::jsonb) as ${RECORDSET}
      where l.url_normalized = x.url_normalized and l.method = x.method
      returning l.id, l.url_normalized, l.method`.execute(db);
    written.push(...rows);
  }
  if (fresh.length > 0) {
    const { rows } = await sql<(typeof written)[number]>`
      insert into listings (url_normalized, method, ${columns}, first_seen_at, last_seen_at, is_active, deactivated_at, next_probe_at, updated_at)
      select x.url_normalized, x.method, ${fromX}, ${now}, ${now}, ${relist}::boolean, ${relist ? null : now}::timestamptz, x.next_probe_at, ${now}
      from jsonb_to_recordset(${toJson(fresh)}::jsonb) as ${RECORDSET}
      on conflict (url_normalized, method) do update set ${setFromExcluded},
        last_seen_at = greatest(listings.last_seen_at, excluded.last_seen_at), is_active = listings.is_active or excluded.is_active,
        deactivated_at = case when excluded.is_active then null else listings.deactivated_at end,
        updated_at = excluded.updated_at
      returning id, url_normalized, method`.execute(db);
    written.push(...rows);
  }
  await recordListingSources(db, source.id, batch, written, now, relist);
  await recordQuotes(db, catalogSightings(batch, written, source.id, now));
  return counts;
}

/**
 * Whether a listed source other than `source` outranks it for the listing `l` (decision 0032):
 * the provider's own manifest first, then the source listing it longest, then the id. A source
 * that appears later cannot rewrite what an incumbent says (service, usage, terms).
 */
function outranked(source: CatalogSource, now: Date) {
  const manifest = source.kind === "manifest";
  return sql`exists (
    select 1 from listing_sources as o join catalog_sources as c on c.id = o.source_id
    where o.listing_id = l.id and o.listed and o.source_id <> ${source.id}
      and ((c.kind = 'manifest') > ${manifest}::boolean
        or ((c.kind = 'manifest') = ${manifest}::boolean and (o.first_seen_at, o.source_id) < (coalesce(
          (select me.first_seen_at from listing_sources as me where me.listing_id = l.id and me.source_id = ${source.id}),
          ${now}::timestamptz), ${source.id}::text))))`;
}
