import { routeList } from "@x402-lookout/contracts";
import { usdcToAtomic } from "@x402-lookout/contracts/usdc";

/** A request's address the way payments compare them: origin (case-folded, default port dropped) and path, no query or fragment. */
export function requestAddress(url: string): string | null {
  if (!URL.canParse(url)) return null;
  const u = new URL(url);
  if (u.protocol !== "http:" && u.protocol !== "https:") return null;
  return `${u.origin}${u.pathname.replace(/\/+$/, "") || "/"}`;
}

const pattern = (path: string) => new RegExp(`^${path.replace(/:[A-Za-z]+/g, "[^/]+")}$`);
const ROUTES = routeList.map((c) => ({ method: c.method.toUpperCase(), path: pattern(c.path), price: c.price }));

/**
 * The listed price, in atomic USDC, of the Lookout route a request goes to; undefined when the
 * request is not to the configured Lookout service, null when it is but names no paid route.
 */
export function lookoutRoutePrice(lookoutBase: string, request: { url: string; method: string }): string | null | undefined {
  const address = requestAddress(request.url);
  if (address === null || (address !== lookoutBase && !address.startsWith(`${lookoutBase}/`))) return undefined;
  const path = new URL(address).pathname.slice(new URL(lookoutBase).pathname.replace(/\/+$/, "").length) || "/";
  const route = ROUTES.find((r) => r.method === request.method.toUpperCase() && r.path.test(path));
  return route?.price ? usdcToAtomic(route.price) : null;
}
