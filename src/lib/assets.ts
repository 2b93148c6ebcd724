import { DEFAULT_ASSETS } from "@x402/evm";
import { EVM_NETWORK_CHAIN_ID_MAP } from "@x402/evm/v1";
import { atomicToUsdc, USDC_DECIMALS } from "@x402-lookout/contracts/usdc";

/**
 * The one table of networks and assets the service knows (decision 0020): the x402 SDK's
 * default-asset table (the assets unmodified clients pay) plus Circle's USDC mints on Solana,
 * which the EVM SDK does not carry. Everything that asks "is this USDC" asks here.
 */
export interface KnownAsset {
  asset: string;
  symbol: string;
  decimals: number;
}

export const SOLANA_MAINNET = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";
export const SOLANA_DEVNET = "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1";

const SOLANA_ASSETS: Readonly<Record<string, readonly KnownAsset[]>> = {
  [SOLANA_MAINNET]: [{ asset: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", symbol: "USDC", decimals: 6 }],
  [SOLANA_DEVNET]: [{ asset: "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU", symbol: "USDC", decimals: 6 }],
};

const KNOWN_ASSETS: Readonly<Record<string, readonly KnownAsset[]>> = {
  ...Object.fromEntries(Object.entries(DEFAULT_ASSETS).map(([n, list]) => [n, list.map(({ asset, symbol, decimals }) => ({ asset, symbol, decimals }))])),
  ...SOLANA_ASSETS,
};

/** CAIP-2 ids of the v1 network names catalogs and old servers still use (the SDK's v1 table). */
export const V1_NETWORK_ALIASES: Readonly<Record<string, string>> = {
  ...Object.fromEntries(Object.entries(EVM_NETWORK_CHAIN_ID_MAP).map(([name, id]) => [name, `eip155:${id}`])),
  solana: SOLANA_MAINNET,
  "solana-devnet": SOLANA_DEVNET,
};

/** CAIP-2 id of a network, translating the v1 names ("base", "solana-devnet", ...). */
export const canonicalNetwork = (network: string): string => (Object.hasOwn(V1_NETWORK_ALIASES, network) ? V1_NETWORK_ALIASES[network]! : network);

/** EVM addresses compare without checksum case; Solana's base58 (and any other) is case-sensitive. */
export function sameAsset(network: string, a: string, b: string): boolean {
  return canonicalNetwork(network).startsWith("eip155:") ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/** The table's entry for an asset on a network, or null when it is not one the service knows. */
export function knownAsset(network: string, asset: string | null | undefined): KnownAsset | null {
  if (!asset) return null;
  return KNOWN_ASSETS[canonicalNetwork(network)]?.find((k) => sameAsset(network, k.asset, asset)) ?? null;
}

/** The network's canonical USDC (as unmodified x402 clients pay it), or null when none is known. */
export function canonicalUsdc(network: string): string | null {
  return KNOWN_ASSETS[canonicalNetwork(network)]?.find((k) => k.symbol === "USDC" && k.decimals === USDC_DECIMALS)?.asset ?? null;
}

/**
 * Whether an asset is its network's canonical USDC. A network with no known USDC, or no asset
 * named, is not judged (null): the signal fires only on evidence, never on what is not known.
 */
export function isCanonicalUsdc(network: string, asset: string | null): boolean | null {
  const usdc = canonicalUsdc(network);
  if (usdc === null || asset === null) return null;
  return sameAsset(network, usdc, asset);
}

/** An atomic amount as USDC when the asset is its network's USDC; null otherwise (price in its own units). */
export const usdcOf = (network: string, asset: string | null, atomic: string): string | null =>
  isCanonicalUsdc(network, asset) === true ? atomicToUsdc(atomic) : null;

/** What to call an asset: the table's symbol, else what the entry says, else the asset id. */
export const assetSymbol = (network: string, asset: string | null, stated?: string): string | null => knownAsset(network, asset)?.symbol ?? stated ?? asset;
