import { EXPLORER } from "../../src/services/index.js";
import { LISTINGS, randomIp } from "../lib/bench-service.js";

export interface PageKind {
  name: string;
  /** A fresh request of this kind: its path and query, and the client address it comes from. */
  next(): { path: string; headers: Record<string, string> };
}

const pick = (n: number) => Math.floor(Math.random() * n);
/** Listing ids run from 1 to LISTINGS in the seeded catalog (bench/lib/seed-catalog.ts). */
const randomId = () => 1 + pick(LISTINGS);
// A search, a filter or a page past the first is rate-limited per client address (decision 0024):
// each request comes from its own address, so the figures are the page's, not the limit's 429.
const kind = (name: string, path: () => string): PageKind => ({ name, next: () => ({ path: path(), headers: { "x-forwarded-for": randomIp() } }) });

/** The page kinds bench:pages measures; the bare page is the same process's floor for an HTML page. */
export const PAGE_KINDS: PageKind[] = [
  kind("bare landing page (static HTML, no data)", () => "/bench/bare-page"),
  kind("GET /", () => "/"),
  kind("GET /endpoints", () => "/endpoints"),
  // 100 listings share a host (seed-catalog.ts): a search that narrows 100,000 rows to 100.
  kind("GET /endpoints?q=<host>", () => `/endpoints?q=${encodeURIComponent(`h${pick(LISTINGS / 100)}.bench.example`)}`),
  kind("GET /endpoints?verdict=skip&category=<c>", () => `/endpoints?verdict=skip&category=${["weather", "ai", "data", "finance"][pick(4)]}`),
  kind("GET /endpoints?sort=uptime", () => `/endpoints?sort=uptime&dir=${pick(2) ? "asc" : "desc"}`),
  kind("GET /endpoints?sort=latency", () => "/endpoints?sort=latency"),
  kind(`GET /endpoints?page=${EXPLORER.maxPage} (the last page served)`, () => `/endpoints?page=${EXPLORER.maxPage}`),
  kind("GET /endpoints/{id}", () => `/endpoints/${randomId()}`),
  kind("GET /badges/endpoints/{id}/uptime.svg", () => `/badges/endpoints/${randomId()}/uptime.svg`),
];
