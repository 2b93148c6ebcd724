import type { DemoCatalogItem, DemoCatalogPage } from "../types.js";

/**
 * The listing the demo Bazaar serves. Insertion order is the page order, and replacing an item
 * keeps its place, so paging stays stable while tests add and remove listings.
 */
export class CatalogStore {
  private readonly items = new Map<string, DemoCatalogItem>();

  upsert(item: DemoCatalogItem): void {
    this.items.set(item.resource, item);
  }

  remove(url: string): boolean {
    return this.items.delete(url);
  }

  page(query: { type: string | undefined; limit: number; offset: number }): DemoCatalogPage {
    const matching = [...this.items.values()].filter((i) => query.type === undefined || i.type === query.type);
    return {
      x402Version: 2,
      items: matching.slice(query.offset, query.offset + query.limit),
      pagination: { limit: query.limit, offset: query.offset, total: matching.length },
    };
  }
}
