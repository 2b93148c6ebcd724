import { RESELLER_MIN_MARKUP } from "../constants.js";
import { usdcToAtomic } from "@x402-lookout/contracts/usdc";
import { listing, used, type ListingSpec, type QualitySpec, type ServiceSpec } from "./listing-spec.js";
import { MARKETPLACE_LISTINGS } from "./marketplace.js";

const relaymart: ServiceSpec = { serviceName: "RelayMart API Hub", provider: "relaymart", tags: ["api-gateway", "proxy"] };

/** Upstream path on the marketplace, the reseller's price and its usage. */
/** 0.08 USDC is 16x RelayMart's median (0.005), past the outlier factor of 10: price_outlier_high too. */
const RESOLD: readonly { upstreamPath: string; price: string; quality: QualitySpec; alsoExpect?: string[] }[] = [
  { upstreamPath: "/weather/current", price: "0.005", quality: used(140, 9, 26) },
  { upstreamPath: "/ai/summarize", price: "0.08", quality: used(62, 5, 3 * 24), alsoExpect: ["price_outlier_high"] },
  { upstreamPath: "/prices/spot", price: "0.002", quality: used(410, 14, 5) },
];

/** The reseller's URL path for an upstream URL: the upstream origin stays visible in it. */
export const resellPath = (upstreamHost: string, upstreamPath: string) => `/resell/${upstreamHost}${upstreamPath}`;

/**
 * Listings that wrap another listed origin at a markup: `/resell/<marketplace host>/<path>`.
 * `upstreamHost` is host:port of the marketplace server, known once it listens.
 */
export function resellerListings(upstreamHost: string): ListingSpec[] {
  return RESOLD.map(({ upstreamPath, price, quality, alsoExpect }) => {
    const upstream = MARKETPLACE_LISTINGS.find((l) => l.path === upstreamPath);
    if (!upstream) throw new Error(`reseller plan names ${upstreamPath}, which the marketplace does not list`);
    if (BigInt(usdcToAtomic(price)) < BigInt(usdcToAtomic(upstream.price)) * BigInt(RESELLER_MIN_MARKUP)) {
      throw new Error(`reseller price ${price} for ${upstreamPath} is below ${RESELLER_MIN_MARKUP}x the upstream ${upstream.price}`);
    }
    return listing(relaymart, {
      kind: "proxy_reseller",
      method: upstream.method,
      path: resellPath(upstreamHost, upstreamPath),
      price,
      input: upstream.input,
      answer: upstream.answer,
      quality,
      upstreamPath,
      ...(alsoExpect ? { alsoExpect } : {}),
      updatedDaysAgo: 7,
      description: `${upstream.description} Instant access through RelayMart, no signup.`,
    });
  });
}
