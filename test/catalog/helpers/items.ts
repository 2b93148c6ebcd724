import { NETWORK_INFO } from "../../../src/lib/networks.js";
import type { BazaarItem } from "../../../src/services/catalog/bazaar-page.js";

/** Catalog items as the Bazaar serves them (v2 and v1 shapes), for tests. */

export const BASE_USDC = NETWORK_INFO["eip155:8453"].usdc.address;
export const BASE_SEPOLIA_USDC = NETWORK_INFO["eip155:84532"].usdc.address;

export interface ItemSpec {
  url: string;
  serviceName?: string;
  payTo?: string;
  network?: string;
  /** Atomic USDC units (6 decimals). */
  amount?: string;
  asset?: string;
  tags?: string[];
  method?: string;
  description?: string;
  quality?: Record<string, unknown>;
}

export function v2Item(s: ItemSpec): BazaarItem & Record<string, unknown> {
  return {
    resource: s.url,
    type: "http",
    x402Version: 2,
    accepts: [
      {
        scheme: "exact",
        network: (s.network ?? "eip155:8453") as `${string}:${string}`,
        amount: s.amount ?? "10000",
        asset: s.asset ?? BASE_USDC,
        payTo: s.payTo ?? "0x1111111111111111111111111111111111111111",
        maxTimeoutSeconds: 300,
        extra: { name: "USD Coin", version: "2" },
      },
    ],
    lastUpdated: "2026-11-19T10:00:00.000Z",
    ...(s.description ? { description: s.description } : {}),
    ...(s.serviceName ? { serviceName: s.serviceName } : {}),
    ...(s.tags ? { tags: s.tags } : {}),
    ...(s.method ? { extensions: { bazaar: { info: { input: { type: "http", method: s.method } } } } } : {}),
    ...(s.quality ? { quality: s.quality } : {}),
  };
}

export function v1Item(s: ItemSpec): Record<string, unknown> {
  return {
    resource: s.url,
    type: "http",
    x402Version: 1,
    accepts: [
      {
        scheme: "exact",
        network: s.network ?? "base",
        maxAmountRequired: s.amount ?? "10000",
        resource: s.url,
        description: s.description ?? "",
        mimeType: "application/json",
        payTo: s.payTo ?? "0x1111111111111111111111111111111111111111",
        maxTimeoutSeconds: 60,
        asset: s.asset ?? BASE_USDC,
        outputSchema: { input: { type: "http", method: s.method ?? "GET" }, output: null },
        extra: { name: "USD Coin", version: "2" },
      },
    ],
    lastUpdated: "2026-11-19T10:00:00.000Z",
    ...(s.tags ? { tags: s.tags } : {}),
  };
}

/** n distinct v2 items on one host. */
export const manyItems = (n: number, host = "https://api.example.com", extra: Partial<ItemSpec> = {}) =>
  Array.from({ length: n }, (_, i) => v2Item({ url: `${host}/r/${i}`, serviceName: "Example", ...extra }));
