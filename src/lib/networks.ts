import { getDefaultAsset } from "@x402/evm";
import { getAddress, type Address } from "viem";

/** The payment networks the service can charge on (CAIP-2). */
export type PaymentNetwork = "eip155:8453" | "eip155:84532";

export interface UsdcAsset {
  address: Address;
  decimals: number;
  symbol: string;
  /** EIP-712 domain of the token; clients sign against it, so it goes into `extra`. */
  eip712: { name: string; version: string };
}

export interface NetworkInfo {
  network: PaymentNetwork;
  chainId: number;
  label: string;
  testnet: boolean;
  usdc: UsdcAsset;
}

// Read from the SDK's own default-asset table: unmodified x402 clients pay only these assets,
// so drifting from them would make real clients refuse our challenges.
function sdkUsdc(network: PaymentNetwork): UsdcAsset {
  const asset = getDefaultAsset(network);
  return {
    address: getAddress(asset.asset),
    decimals: asset.decimals,
    symbol: asset.symbol,
    eip712: { name: asset.name, version: asset.version },
  };
}

export const NETWORK_INFO: Readonly<Record<PaymentNetwork, NetworkInfo>> = {
  "eip155:8453": { network: "eip155:8453", chainId: 8453, label: "Base", testnet: false, usdc: sdkUsdc("eip155:8453") },
  "eip155:84532": {
    network: "eip155:84532",
    chainId: 84532,
    label: "Base Sepolia",
    testnet: true,
    usdc: sdkUsdc("eip155:84532"),
  },
};

export function isPaymentNetwork(value: string): value is PaymentNetwork {
  return Object.hasOwn(NETWORK_INFO, value);
}

export function getNetworkInfo(network: PaymentNetwork): NetworkInfo {
  return NETWORK_INFO[network];
}

/** The `extra` field of an `exact` PaymentRequirements for this network's USDC. */
export function usdcRequirementExtra(network: PaymentNetwork): { name: string; version: string } {
  const { name, version } = NETWORK_INFO[network].usdc.eip712;
  return { name, version };
}
