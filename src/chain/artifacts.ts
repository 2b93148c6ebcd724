import type { Abi, Hex } from "viem";
import artifactsJson from "./contracts/artifacts.json" with { type: "json" };

/** Compiled runtime code of one contract; written by scripts/compile-contracts.ts. */
export interface ContractArtifact {
  /** sha256 of the Solidity source, so a stale artifact is caught even for comment-only edits. */
  sourceSha256: string;
  abi: Abi;
  /** Runtime code: the devnet installs it with anvil_setCode, never through a constructor. */
  deployedBytecode: Hex;
}

export type ContractName = "TestUSDC" | "Multicall3Compatible";

export interface ContractArtifacts {
  compiler: { version: string; settings: Record<string, unknown> };
  contracts: Record<ContractName, ContractArtifact>;
}

/** Committed artifacts, so start-up never needs the Solidity compiler. */
export const contractArtifacts = artifactsJson as unknown as ContractArtifacts;
