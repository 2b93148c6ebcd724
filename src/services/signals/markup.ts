import { currentPrice, type ListingRow } from "./listing-row.js";
import { quantile } from "./quantile.js";

/** The reference price a listing is compared with for proxy_markup (signals.md). */
export interface Markup {
  reference_price_usdc: number;
  basis: "service_median" | "x402_floor";
  /** high: the URL wraps another listed origin, so it is a reseller beyond doubt. */
  confidence: "medium" | "high";
  evidence: string[];
}

const priceOf = (r: ListingRow): number | null => {
  const p = currentPrice(r);
  return p === null || !Number.isFinite(Number(p)) ? null : Number(p);
};

/** Path segments and query values of a URL: where resellers put the origin they wrap. */
function wrappedCandidates(url: string): string[] {
  const u = new URL(url);
  const parts = u.pathname.split("/").filter(Boolean).map(safeDecode);
  for (const v of u.searchParams.values()) parts.push(safeDecode(v));
  return parts.flatMap((p) => (URL.canParse(p) ? [new URL(p).host, p] : [p]));
}
const safeDecode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

export function markupFor(rows: readonly ListingRow[]): Map<number, Markup> {
  const byHost = new Map<string, ListingRow[]>();
  const byService = new Map<string, ListingRow[]>();
  const byHostPath = new Map<string, ListingRow>();
  const categoryFloor = new Map<string, number>();
  const add = <K>(map: Map<K, ListingRow[]>, key: K, r: ListingRow) => {
    const list = map.get(key);
    if (list) list.push(r);
    else map.set(key, [r]);
  };
  for (const r of rows) {
    add(byHost, r.host, r);
    add(byService, r.service_id, r);
    byHostPath.set(r.host + new URL(r.url_normalized).pathname, r);
    const p = priceOf(r);
    if (p !== null && p > 0) categoryFloor.set(r.category ?? "other", Math.min(categoryFloor.get(r.category ?? "other") ?? Infinity, p));
  }

  const out = new Map<number, Markup>();
  const peersOf = new Map<string, number[]>();
  for (const r of rows) {
    const upstreamHost = wrappedCandidates(r.url_normalized).find((c) => c !== r.host && byHost.has(c));
    if (upstreamHost) {
      const rest = new URL(r.url_normalized).pathname.split(upstreamHost)[1] ?? "/";
      const exact = byHostPath.get(upstreamHost + (rest.startsWith("/") ? rest : `/${rest}`));
      const exactPrice = exact ? priceOf(exact) : null;
      const hostPrices = (byHost.get(upstreamHost) ?? [])
        .map(priceOf)
        .filter((p): p is number => p !== null)
        .sort((a, b) => a - b);
      const median = quantile(hostPrices, 0.5);
      const floor = categoryFloor.get(r.category ?? "other") ?? null;
      const reference = exactPrice ?? median ?? floor;
      if (reference !== null && reference > 0) {
        out.set(r.id, {
          reference_price_usdc: reference,
          basis: exactPrice !== null || median !== null ? "service_median" : "x402_floor",
          confidence: "high",
          evidence: [
            `the URL wraps the listed origin ${upstreamHost}`,
            exact && exactPrice !== null
              ? `the upstream listing ${exact.url_normalized} charges ${exactPrice} USDC`
              : `reference ${reference} USDC from ${median !== null ? "the upstream origin's median price" : "the category floor price"}`,
          ],
        });
      }
      continue;
    }
    // Peers sell the same service under another payee: a reseller's own endpoints are no reference.
    // They depend only on the service and the payee, so each pair is worked out once.
    const peersKey = r.provider_id === null ? `${r.service_id}\u0000` : `${r.service_id}\u0000=${r.provider_id}`;
    let peers = peersOf.get(peersKey);
    if (!peers) {
      peers = (byService.get(r.service_id) ?? [])
        .filter((p) => p.provider_id !== r.provider_id)
        .map(priceOf)
        .filter((p): p is number => p !== null)
        .sort((a, b) => a - b);
      peersOf.set(peersKey, peers);
    }
    const median = quantile(peers, 0.5);
    if (median !== null && median > 0) {
      out.set(r.id, {
        reference_price_usdc: median,
        basis: "service_median",
        confidence: "medium",
        evidence: [`median price of ${peers.length} listing(s) of the same service by other providers is ${median} USDC`],
      });
    }
  }
  return out;
}
