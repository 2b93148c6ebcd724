/**
 * Cache-Control per kind of explorer page (decision 0024). A verdict changes at most once per
 * probe window, so public pages may be kept a minute by browsers and shared caches, and served
 * stale while one revalidates; badges are embedded elsewhere and fetched far more often.
 */
export const PAGE_CACHE = {
  /** `/`: live figures; with the overview's own bound, never shown older than LANDING_BOUND_S. */
  landing: "public, max-age=15, stale-while-revalidate=15",
  /** `/endpoints` (every search, filter, sort and page), provider and service pages. */
  list: "public, max-age=60, stale-while-revalidate=120",
  /** `/endpoints/{id}`: the verdict and hourly aggregates of one endpoint. */
  endpoint: "public, max-age=60, stale-while-revalidate=300",
  /** `/badges/endpoints/{id}/{kind}.svg`: embedded in READMEs and dashboards. */
  badge: "public, max-age=300, stale-while-revalidate=600",
  /** A free-trial answer (`/check`): counted against the caller's quota, never shared nor kept. */
  trial: "private, no-store",
  /** A refusal or a missing page: not worth keeping, and a 404 may exist a minute later. */
  error: "no-store",
} as const;

/**
 * The landing page states this bound on its figures' age: the overview serves them at most 30 s
 * old (OVERVIEW_AGE) and a cache keeps the page at most max-age + stale-while-revalidate = 30 s more.
 */
export const LANDING_BOUND_S = 60;

export type PageKind = keyof typeof PAGE_CACHE;

/** The header object for `c.html(body, status, cacheHeaders("list"))`. */
export const cacheHeaders = (kind: PageKind): { "cache-control": string } => ({ "cache-control": PAGE_CACHE[kind] });
