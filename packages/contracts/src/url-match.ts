/**
 * How a request URL finds its catalog listing, the way a payment would reach it (docs/signals.md
 * "How a URL is matched"). One core for the service, the client's offline snapshot and the guard.
 */

/** A listing as the matcher sees it: its catalogued address and method. */
export interface MatchCandidate {
  url: string;
  method: string;
  /** Absent counts as active (the offline snapshot holds only active listings). */
  is_active?: boolean;
}

/** How the request reached the listing: its very address (as URLs parse: scheme and host case, default port), the same with a trailing slash or a query the listing does not name, or a route template. */
export type MatchedBy = "exact" | "normalized" | "route_template";

export interface Match<C> {
  listing: C;
  by: MatchedBy;
}

const parse = (url: string): URL | undefined => {
  if (!URL.canParse(url)) return undefined;
  const u = new URL(url);
  return u.protocol === "http:" || u.protocol === "https:" ? u : undefined;
};

// The WHATWG parser already folds scheme and host case, gives internationalised hosts in ASCII and drops default ports.
const trimmedPath = (u: URL): string => u.pathname.replace(/\/+$/, "") || "/";

/**
 * What a URL and its listing share when they can match: origin and path, without query,
 * fragment, credentials or trailing slashes; undefined for what is not an absolute http(s) URL.
 * The listings table keeps the same key as a generated column (migration 0024).
 */
export function matchKey(url: string): string | undefined {
  const u = parse(url);
  return u && `${u.origin}${trimmedPath(u)}`;
}

// Bazaar route templates name a parameter as ":name" (the facilitator's canonical form) or "[name]".
const PARAM = /^(?::[A-Za-z_][A-Za-z0-9_]*|\[[^\]/]+\])$/;

/** Whether a catalogued address is a route template (a path segment names a parameter). */
export const isRouteTemplate = (url: string): boolean => {
  const u = parse(url);
  return u !== undefined && u.pathname.split("/").some((s) => PARAM.test(s));
};

function templateMatches(template: URL, request: URL): boolean {
  if (template.origin !== request.origin) return false;
  const want = trimmedPath(template).split("/");
  const got = trimmedPath(request).split("/");
  return want.length === got.length && want.every((s, i) => (PARAM.test(s) ? got[i] !== "" : s === got[i]));
}

/** Every parameter the listing's own address names, with its value, is in the request's query. */
const queryNamed = (listing: URL, request: URL): boolean => [...listing.searchParams].every(([k, v]) => request.searchParams.getAll(k).includes(v));

/**
 * The listing a request reaches among candidates (any order), or undefined. A candidate matches
 * when its key equals the request's and the request carries every query parameter the listing
 * names, or when it is a route template the path fills. Among matches: active first, then the
 * concrete address before a template, the listing naming more of the query, the request's
 * method, the very path (trailing slash), the earlier candidate.
 */
export function pickListing<C extends MatchCandidate>(request: { url: string; method?: string | undefined }, candidates: readonly C[]): Match<C> | undefined {
  const req = parse(request.url);
  if (!req) return undefined;
  const key = `${req.origin}${trimmedPath(req)}`;
  const method = request.method?.toUpperCase();
  const ranked = candidates.flatMap((listing, order) => {
    const u = parse(listing.url);
    if (!u) return [];
    const template = isRouteTemplate(listing.url);
    const fits = template ? templateMatches(u, req) : `${u.origin}${trimmedPath(u)}` === key && queryNamed(u, req);
    if (!fits) return [];
    const sameMethod = method === undefined || listing.method.toUpperCase() === method;
    const exact = !template && sameMethod && u.pathname === req.pathname && u.search === req.search;
    const score = [
      listing.is_active === false ? 0 : 1,
      template ? 0 : 1,
      [...u.searchParams].length,
      sameMethod ? 1 : 0,
      u.pathname === req.pathname ? 1 : 0,
      -order,
    ];
    return [{ listing, by: (exact ? "exact" : template ? "route_template" : "normalized") as MatchedBy, score }];
  });
  ranked.sort((a, b) => compareScores(b.score, a.score));
  const best = ranked[0];
  return best && { listing: best.listing, by: best.by };
}

function compareScores(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}
