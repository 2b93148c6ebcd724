import type { ListQuery, SortKey } from "../../services/index.js";

/** The query string of `q`, leaving out defaults, so links stay short and equal queries share a cache entry. */
export function queryString(q: ListQuery): string {
  const p = new URLSearchParams();
  if (q.q) p.set("q", q.q);
  if (q.verdict) p.set("verdict", q.verdict);
  if (q.warning) p.set("warning", q.warning);
  if (q.category) p.set("category", q.category);
  if (q.network) p.set("network", q.network);
  if (q.minPrice !== undefined) p.set("min_price", q.minPrice);
  if (q.maxPrice !== undefined) p.set("max_price", q.maxPrice);
  if (q.sort !== "listed") p.set("sort", q.sort);
  if (q.dir !== defaultDir(q.sort)) p.set("dir", q.dir);
  if (q.page > 1) p.set("page", String(q.page));
  const s = p.toString();
  return s ? `?${s}` : "";
}

/** Uptime and paid volume read best high first; latency and price low first; the catalog in listing order. */
export const defaultDir = (sort: SortKey): "asc" | "desc" => (sort === "uptime" || sort === "volume" ? "desc" : "asc");

/** The same list on another page. */
export const pageHref = (path: string, q: ListQuery, page: number) => path + queryString({ ...q, page });

/** The same filters sorted by `sort`: its default direction, or the other one when it is the current sort. */
export function sortHref(path: string, q: ListQuery, sort: SortKey): string {
  const dir = q.sort === sort ? (q.dir === "asc" ? "desc" : "asc") : defaultDir(sort);
  return path + queryString({ ...q, sort, dir, page: 1 });
}

export const endpointHref = (id: number) => `/endpoints/${id}`;
export const providerHref = (id: string) => `/providers/${encodeURIComponent(id)}`;
export const serviceHref = (id: string) => `/services/${encodeURIComponent(id)}`;
