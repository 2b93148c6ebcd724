import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { usdcDecimal } from "../../lib/money.js";
import type { EndpointIdentity, EndpointVerdict } from "./types.js";

interface Row {
  id: number;
  url: string;
  method: string;
  service_id: string;
  service: string;
  provider_id: string | null;
  provider: string | null;
  category: string | null;
  network: string | null;
  price: string | null;
  is_active: boolean;
  first_seen_at: Date;
  feed: { ok: boolean; action: string; warnings: string[]; reason_codes?: string[] } | null;
  uptime_7d_pct: number | null;
}

/**
 * The listing, its stored preflight view (signal_snapshots.feed, written by the same firedOf and
 * viewOf as preflight) and its 7-day uptime, read as the endpoint list reads them, so a row and
 * its page never disagree. undefined for an unknown id.
 */
export async function identityOf(
  db: Kysely<Database>,
  id: number,
): Promise<{ endpoint: EndpointIdentity; verdict: EndpointVerdict | null; uptime7dPct: number | null } | undefined> {
  const { rows } = await sql<Row>`
    select l.id, l.url, l.method, l.service_id, sv.name as service, l.provider_id, coalesce(p.name, l.provider_id) as provider, l.category,
           coalesce(s.feed ->> 'network', l.network) as network, coalesce(s.feed ->> 'price_usdc', l.price_usdc::text) as price,
           l.is_active, l.first_seen_at, s.feed, round(s.uptime_7d_pct::numeric, 1)::float8 as uptime_7d_pct
    from listings l
    join services sv on sv.service_id = l.service_id
    left join providers p on p.provider_id = l.provider_id
    left join signal_snapshots s on s.listing_id = l.id
    where l.id = ${id}`.execute(db);
  const r = rows[0];
  if (!r) return undefined;
  const feed = typeof r.feed === "string" ? (JSON.parse(r.feed) as Row["feed"]) : r.feed;
  return {
    endpoint: {
      id: Number(r.id),
      url: r.url,
      method: r.method,
      serviceId: r.service_id,
      service: r.service,
      providerId: r.provider_id,
      provider: r.provider,
      category: r.category,
      network: r.network,
      priceUsdc: usdcDecimal(r.price),
      isActive: r.is_active,
      firstSeenAt: new Date(r.first_seen_at),
    },
    // A listing that left the catalog keeps its last entry (a tombstone outranks it): no current verdict.
    // The page explains every code that fired (reason_codes; an entry older than decision 0045 held them all in warnings).
    verdict: r.is_active && feed ? { ok: feed.ok, action: feed.action, warnings: feed.reason_codes ?? feed.warnings ?? [] } : null,
    uptime7dPct: r.uptime_7d_pct === null ? null : Number(r.uptime_7d_pct),
  };
}
