import { getDefaultAsset } from "@x402/evm";

/** CAIP-2 ids of the v1 network names catalogs and old servers still use. */
export const V1_NETWORK_ALIASES: Readonly<Record<string, string>> = {
  base: "eip155:8453",
  "base-sepolia": "eip155:84532",
  solana: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
  "solana-devnet": "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1",
};

/** CAIP-2 id of a network, translating the v1 names ("base", "base-sepolia"). */
export const canonicalNetwork = (network: string): string => V1_NETWORK_ALIASES[network] ?? network;

// Circle's USDC mints on Solana; the SDK's default-asset table covers EVM networks only.
const SOLANA_USDC: Readonly<Record<string, string>> = {
  "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp": "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
  "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1": "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU",
};

/** The network's canonical USDC (as unmodified x402 clients pay it), or null when none is known. */
export function canonicalUsdc(network: string): string | null {
  const caip = canonicalNetwork(network);
  if (SOLANA_USDC[caip]) return SOLANA_USDC[caip];
  if (!caip.startsWith("eip155:")) return null;
  try {
    const asset = getDefaultAsset(caip as `${string}:${string}`);
    return asset.symbol === "USDC" ? asset.asset : null;
  } catch {
    return null;
  }
}

/**
 * Whether an asset is its network's canonical USDC. A network with no known USDC, or no asset
 * named, is not judged (null): the signal fires only on evidence, never on what is not known.
 */
export function isCanonicalUsdc(network: string, asset: string | null): boolean | null {
  const usdc = canonicalUsdc(network);
  if (usdc === null || asset === null) return null;
  return usdc.startsWith("0x") ? usdc.toLowerCase() === asset.toLowerCase() : usdc === asset;
}
