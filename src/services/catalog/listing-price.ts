import { NETWORK_INFO, isPaymentNetwork } from "../../lib/networks.js";
import { atomicToUsdc } from "@x402-lookout/contracts/usdc";
import { canonicalNetwork } from "../../lib/assets.js";

/** One accepts entry as the catalog gives it (v2 `amount`, v1 `maxAmountRequired`). */
export interface AcceptsEntry {
  scheme: string;
  network: string;
  payTo: string;
  asset?: string | undefined;
  amount?: string | number | undefined;
  maxAmountRequired?: string | number | undefined;
  extra?: Record<string, unknown> | undefined;
}

export interface ListingPrice {
  priceUsdc: string | null;
  priceAtomic: string | null;
  currency: string | null;
  network: string;
  asset: string | null;
  payTo: string;
}

export { canonicalNetwork };

/** EVM addresses are case-insensitive, so one payee is one key; other networks keep case. */
export function canonicalPayTo(network: string, payTo: string): string {
  return network.startsWith("eip155:") ? payTo.toLowerCase() : payTo;
}

function isUsdc(network: string, asset: string | undefined): boolean {
  if (asset === undefined) return false;
  if (asset.toUpperCase() === "USDC") return true;
  return isPaymentNetwork(network) && NETWORK_INFO[network].usdc.address.toLowerCase() === asset.toLowerCase();
}

function atomicAmount(entry: AcceptsEntry): string | undefined {
  const raw = entry.amount ?? entry.maxAmountRequired;
  const text = typeof raw === "number" && Number.isSafeInteger(raw) ? String(raw) : raw;
  return typeof text === "string" && /^\d{1,40}$/.test(text) ? BigInt(text).toString() : undefined;
}

/**
 * The price of a listing from its first `exact` entry on a supported network; without one,
 * the first entry gives network and payee and the price stays unknown. A price in another
 * asset keeps its atomic amount and names the asset, but has no USDC value.
 * Throws when the chosen entry's amount is not a non-negative integer.
 */
export function listingPrice(accepts: readonly AcceptsEntry[]): ListingPrice {
  const first = accepts[0]!;
  const priced = accepts.find((a) => a.scheme === "exact" && isPaymentNetwork(canonicalNetwork(a.network)));
  const entry = priced ?? first;
  const network = canonicalNetwork(entry.network);
  const base = { network, asset: entry.asset ?? null, payTo: entry.payTo };
  if (!priced) return { ...base, priceUsdc: null, priceAtomic: null, currency: null };
  const atomic = atomicAmount(priced);
  if (atomic === undefined) throw new Error("the exact accepts entry has no integer amount");
  const usdc = isUsdc(network, priced.asset);
  const symbol = typeof priced.extra?.symbol === "string" ? priced.extra.symbol : undefined;
  return {
    ...base,
    priceAtomic: atomic,
    priceUsdc: usdc ? atomicToUsdc(atomic) : null,
    currency: usdc ? "USDC" : (symbol ?? priced.asset ?? null),
  };
}
