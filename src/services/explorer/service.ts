import type { DbHandle } from "../../db/client.js";
import { perGeneration } from "../../db/read-models/per-generation.js";
import type { Clock } from "../../lib/clock.js";
import { CatalogIndex } from "./catalog-index.js";
import { predicateOf, type Scope } from "./filters.js";
import { loadRows } from "./load-rows.js";
import { providerTimeline, type ProviderTimeline } from "./provider-incidents.js";
import { sparklineCache } from "./sparklines.js";
import { EXPLORER, type ListPage, type ListQuery, type Totals } from "./types.js";

export interface ProviderPage {
  provider: { id: string; name: string | null; network: string; payTo: string };
  totals: Totals;
  list: ListPage;
  /** Its endpoints' delist flag changes over the last 7 days (issue 35 item 9). */
  timeline: ProviderTimeline;
  observedAt: Date;
}

export interface ServicePage {
  service: { id: string; name: string; origin: string | null };
  totals: Totals;
  list: ListPage;
}

export interface ExplorerDeps {
  db: Pick<DbHandle, "db" | "generation">;
  clock: Clock;
}

/**
 * The public explorer's lists (issue 26): every active listing searchable, filterable, sortable
 * and paged, and provider and service pages with their totals. The listings and their stored
 * verdicts are kept per verdict generation (catalog-index.ts), and so are the sparklines read so
 * far (one statement for a page's others).
 */
export function createExplorerService({ db: handle, clock }: ExplorerDeps) {
  const db = handle.db;
  const current = perGeneration(handle, async () => ({ index: new CatalogIndex(await loadRows(db)), lines: sparklineCache(db) }));
  type Generation = Awaited<ReturnType<typeof current>>;

  async function page({ index, lines: cached }: Generation, q: ListQuery, scope: Scope): Promise<ListPage> {
    const size = EXPLORER.pageSize;
    const { total, rows } = index.select(predicateOf(index, q, scope), q.sort, q.dir, (q.page - 1) * size, size);
    const lines = await cached(
      rows.map((r) => r.id),
      clock.now(),
    );
    return {
      rows: rows.map((r) => ({ ...r, sparkline: lines.get(r.id)! })),
      total,
      page: q.page,
      pages: Math.min(EXPLORER.maxPage, Math.max(1, Math.ceil(total / size))),
      facets: { categories: index.categories, networks: index.networks },
    };
  }

  return {
    list: async (q: ListQuery): Promise<ListPage> => page(await current(), q, null),

    /** A provider's endpoints (the query narrows them further), totals and incident timeline; null for an unknown provider. */
    async provider(id: string, q: ListQuery): Promise<ProviderPage | null> {
      const [gen, p] = await Promise.all([
        current(),
        db.selectFrom("providers").select(["provider_id", "name", "network", "pay_to"]).where("provider_id", "=", id).executeTakeFirst(),
      ]);
      if (!p) return null;
      const scope = { providerId: id };
      const now = clock.now();
      const [list, timeline] = await Promise.all([page(gen, q, scope), providerTimeline(db, id, now)]);
      return {
        provider: { id: p.provider_id, name: p.name, network: p.network, payTo: p.pay_to },
        totals: gen.index.totals(predicateOf(gen.index, {}, scope)),
        list,
        timeline,
        observedAt: now,
      };
    },

    /** A service's endpoints (the query narrows them further) and totals; null for an unknown service. */
    async service(id: string, q: ListQuery): Promise<ServicePage | null> {
      const [gen, s] = await Promise.all([
        current(),
        db.selectFrom("services").select(["service_id", "name", "origin"]).where("service_id", "=", id).executeTakeFirst(),
      ]);
      if (!s) return null;
      const scope = { serviceId: id };
      return {
        service: { id: s.service_id, name: s.name, origin: s.origin },
        totals: gen.index.totals(predicateOf(gen.index, {}, scope)),
        list: await page(gen, q, scope),
      };
    },
  };
}

export type ExplorerService = ReturnType<typeof createExplorerService>;
