import { defineChain, type Address, type Chain } from "viem";

export const DEVNET_CHAIN_ID = 84532;
export const DEVNET_NETWORK = "eip155:84532";
/** Multicall3's address on every public chain; the SDK and viem hard-code it. */
export const MULTICALL3_ADDRESS: Address = "0xcA11bde05977b3631167028862bE2a173976CA11";
/** How often viem polls the devnet; anvil mines on arrival, so there is no reason to wait long. */
export const DEVNET_POLLING_INTERVAL_MS = 100;
/**
 * An empty block every this many seconds, beside mining each transaction on arrival: the chain's
 * clock keeps moving while idle, so authorizations signed `validAfter = now - 600` (the Python
 * SDK, older @x402/evm) still simulate after any pause (docs/payments.md, "The devnet's clock").
 */
export const DEVNET_BLOCK_TIME_SECONDS = 30;

/**
 * The devnet reuses Base Sepolia's chain id so unmodified x402 clients sign for the network
 * they know. To viem it is a plain chain rather than viem's baseSepolia: anvil is not an
 * OP-stack node, and the only RPC URL must be the local one so nothing ever leaves the machine.
 */
export function devnetChain(rpcUrl: string): Chain {
  return defineChain({
    id: DEVNET_CHAIN_ID,
    name: "Base Sepolia (local anvil devnet)",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
    contracts: { multicall3: { address: MULTICALL3_ADDRESS } },
    testnet: true,
  });
}
