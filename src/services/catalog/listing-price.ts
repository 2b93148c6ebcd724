import { requirementAmount } from "@x402-lookout/contracts/quote";
import { assetSymbol, canonicalNetwork, canonicalUsdc, isCanonicalUsdc, usdcOf } from "../../lib/assets.js";

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

/** EVM addresses are case-insensitive, so one payee is one key; other networks (base58) keep case. */
export function canonicalPayTo(network: string, payTo: string): string {
  return network.startsWith("eip155:") ? payTo.toLowerCase() : payTo;
}

// A bare "USDC" stands for the network's USDC where the table knows one.
const usdcAsset = (network: string, asset: string | undefined): string | null =>
  asset?.toUpperCase() === "USDC" ? (canonicalUsdc(network) ?? asset) : (asset ?? null);

// The one amount reader (docs/verdicts.md): a catalog's entry is read as a client would sign it.
function atomicAmount(entry: AcceptsEntry): string | undefined {
  const read = requirementAmount(entry, entry.amount === undefined ? 1 : 2);
  return read.malformed === null ? read.amount : undefined;
}

const isExact = (a: AcceptsEntry) => a.scheme === "exact";
const paysUsdc = (a: AcceptsEntry) => isExact(a) && isCanonicalUsdc(canonicalNetwork(a.network), usdcAsset(canonicalNetwork(a.network), a.asset)) === true;

/**
 * The price of a listing, in its asset's units: the first `exact` entry paying its network's
 * USDC (lib/assets.ts: the SDK's default assets and Circle's Solana mints), else the first
 * `exact` entry. USDC gives `priceUsdc`; another asset keeps its atomic amount and names itself
 * in `currency`. Without an `exact` entry the first entry gives network and payee, price unknown.
 * Throws when the chosen entry's amount is not a non-negative integer.
 */
export function listingPrice(accepts: readonly AcceptsEntry[]): ListingPrice {
  const priced = accepts.find(paysUsdc) ?? accepts.find(isExact);
  const entry = priced ?? accepts[0]!;
  const network = canonicalNetwork(entry.network);
  const asset = usdcAsset(network, entry.asset);
  const base = { network, asset, payTo: entry.payTo };
  if (!priced) return { ...base, priceUsdc: null, priceAtomic: null, currency: null };
  const atomic = atomicAmount(priced);
  if (atomic === undefined) throw new Error("the exact accepts entry's amount is not one canonical decimal integer");
  const priceUsdc = usdcOf(network, asset, atomic);
  const stated = typeof priced.extra?.symbol === "string" ? priced.extra.symbol : undefined;
  return { ...base, priceAtomic: atomic, priceUsdc, currency: priceUsdc !== null ? "USDC" : assetSymbol(network, asset, stated) };
}
