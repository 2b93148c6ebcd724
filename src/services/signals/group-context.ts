import { currentPrice, type ListingRow } from "./listing-row.js";
import { markupFor, type Markup } from "./markup.js";
import { providerEvidence } from "./provider-since.js";
import { quantile } from "./quantile.js";
import { serviceEndpoints } from "./service-endpoints.js";

/**
 * What a verdict needs to know beyond its own listing, computed once per recompute over the
 * whole active catalog and stored in the snapshot's detail, so the request path stays a lookup.
 */
export interface SignalContext {
  /**
   * The service's distinct endpoints, those that failed in the zombie window and those with a
   * healthy probe there. Optional because snapshots written before issue 23 lack them: a
   * reader takes a missing count as 0, which never makes a zombie.
   */
  service_endpoints?: number;
  service_failed_endpoints?: number;
  service_healthy_endpoints?: number;
  /** The provider's earliest dated sighting anywhere (provider-since.ts); the name predates that. */
  service_since: string | null;
  /** A source reports paid calls of the provider; missing in snapshots written before issue 35. */
  provider_called?: boolean;
  markup: Markup | null;
  group: GroupStats;
}

export interface GroupStats {
  key: string;
  raw_group_size: number;
  effective_group_size: number;
  raw_catalog_total: number;
  effective_catalog_total: number;
  concentration_pct: number | null;
  group_median_price_usdc: number | null;
  group_p90_price_usdc: number | null;
}

const groupKey = (r: ListingRow) => (r.provider_id ? `provider:${r.provider_id}` : `domain:${r.domain ?? r.host}`);
const hostTrap = (r: ListingRow) => Boolean(r.wildcard_402_detected || r.spa_fallback_detected);

/** A flagged host counts as its own effective supply (sitemap, manifest or 1), never per path. */
function effectiveShare(rawOnHost: number, row: ListingRow): number {
  return hostTrap(row) ? Math.min(rawOnHost, Math.max(1, row.effective_count ?? 1)) : rawOnHost;
}

export function computeContexts(rows: readonly ListingRow[]): Map<number, SignalContext> {
  const groups = new Map<string, { prices: number[]; hosts: Map<string, { n: number; row: ListingRow }> }>();
  const hosts = new Map<string, { n: number; row: ListingRow }>();

  for (const r of rows) {
    const g = groups.get(groupKey(r)) ?? { prices: [] as number[], hosts: new Map<string, { n: number; row: ListingRow }>() };
    const price = Number(currentPrice(r));
    if (currentPrice(r) !== null && Number.isFinite(price)) g.prices.push(price);
    const gh = g.hosts.get(r.host) ?? { n: 0, row: r };
    gh.n++;
    g.hosts.set(r.host, gh);
    groups.set(groupKey(r), g);

    const h = hosts.get(r.host) ?? { n: 0, row: r };
    h.n++;
    hosts.set(r.host, h);
  }

  const rawTotal = rows.length;
  const effectiveTotal = [...hosts.values()].reduce((sum, h) => sum + effectiveShare(h.n, h.row), 0);
  const stats = new Map<string, GroupStats>();
  for (const [key, g] of groups) {
    const sorted = [...g.prices].sort((a, b) => a - b);
    const raw = [...g.hosts.values()].reduce((sum, h) => sum + h.n, 0);
    const effective = [...g.hosts.values()].reduce((sum, h) => sum + effectiveShare(h.n, h.row), 0);
    stats.set(key, {
      key,
      raw_group_size: raw,
      effective_group_size: effective,
      raw_catalog_total: rawTotal,
      effective_catalog_total: effectiveTotal,
      concentration_pct: effectiveTotal > 0 ? Math.round((effective / effectiveTotal) * 1000) / 10 : null,
      group_median_price_usdc: quantile(sorted, 0.5),
      group_p90_price_usdc: quantile(sorted, 0.9),
    });
  }

  const markups = markupFor(rows);
  const endpoints = serviceEndpoints(rows);
  const providers = providerEvidence(rows);
  const out = new Map<number, SignalContext>();
  for (const r of rows) {
    const p = providers.get(r.id)!;
    const e = endpoints.get(r.service_id)!;
    out.set(r.id, {
      service_endpoints: e.endpoints,
      service_failed_endpoints: e.failed,
      service_healthy_endpoints: e.healthy,
      service_since: p.since === null ? null : new Date(p.since).toISOString(),
      provider_called: p.called,
      markup: markups.get(r.id) ?? null,
      group: stats.get(groupKey(r))!,
    });
  }
  return out;
}
