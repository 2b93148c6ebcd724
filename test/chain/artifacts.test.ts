import { readFileSync } from "node:fs";
import { getDefaultAsset } from "@x402/evm";
import { multicall3Abi, toEventSignature, toFunctionSignature, type AbiEvent, type AbiFunction } from "viem";
import { describe, expect, it } from "vitest";
import { ARTIFACTS_PATH, compileContracts, renderArtifacts } from "../../scripts/compile-contracts.js";
import { contractArtifacts } from "../../src/chain/artifacts.js";
import { NETWORK_INFO, isPaymentNetwork, usdcRequirementExtra } from "../../src/lib/networks.js";
import { testUsdcAbi } from "../../src/chain/token-abi.js";

function signatures(abi: readonly unknown[]): Set<string> {
  const result = new Set<string>();
  for (const item of abi as (AbiFunction | AbiEvent | { type: string })[]) {
    if (item.type === "function") result.add(toFunctionSignature(item as AbiFunction));
    if (item.type === "event") result.add(toEventSignature(item as AbiEvent));
  }
  return result;
}

describe("contract artifacts", () => {
  it("are up to date with contracts/*.sol (run: npx tsx scripts/compile-contracts.ts)", () => {
    expect(readFileSync(ARTIFACTS_PATH, "utf8")).toBe(renderArtifacts(compileContracts()));
  });

  it("contain runtime code for both contracts", () => {
    for (const artifact of Object.values(contractArtifacts.contracts)) {
      expect(artifact.deployedBytecode).toMatch(/^0x[0-9a-f]{200,}$/);
    }
  });

  it("expose every function and event of the typed TestUSDC ABI", () => {
    const compiled = signatures(contractArtifacts.contracts.TestUSDC.abi);
    for (const signature of signatures(testUsdcAbi)) expect(compiled).toContain(signature);
  });

  it("give Multicall3 the functions the SDK and viem call", () => {
    const compiled = signatures(contractArtifacts.contracts.Multicall3Compatible.abi);
    // @x402/evm explains failed verifications through tryAggregate; viem batches via aggregate3.
    expect(compiled).toContain("tryAggregate(bool,(address,bytes)[])");
    for (const signature of signatures(multicall3Abi)) expect(compiled).toContain(signature);
  });
});

describe("networks", () => {
  it("match the SDK's default USDC for Base and Base Sepolia", () => {
    expect(NETWORK_INFO["eip155:8453"].usdc).toEqual({
      address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      decimals: 6,
      symbol: "USDC",
      eip712: { name: "USD Coin", version: "2" },
    });
    expect(NETWORK_INFO["eip155:84532"].usdc).toEqual({
      address: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
      decimals: 6,
      symbol: "USDC",
      eip712: { name: "USDC", version: "2" },
    });
    for (const info of Object.values(NETWORK_INFO)) {
      expect(info.usdc.address).toBe(getDefaultAsset(info.network).asset);
      expect(info.network).toBe(`eip155:${info.chainId}`);
    }
  });

  it("recognise only the two payment networks", () => {
    expect(isPaymentNetwork("eip155:8453")).toBe(true);
    expect(isPaymentNetwork("eip155:84532")).toBe(true);
    expect(isPaymentNetwork("eip155:1")).toBe(false);
    expect(isPaymentNetwork("toString")).toBe(false);
    expect(usdcRequirementExtra("eip155:84532")).toEqual({ name: "USDC", version: "2" });
  });
});
