/**
 * Compiles contracts/*.sol with solc-js and writes src/chain/contracts/artifacts.json.
 * The artifact is committed so start-up never compiles; test/chain/artifacts.test.ts recompiles
 * and fails when it is stale. Run: npx tsx scripts/compile-contracts.ts
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import solc from "solc";
import type { Abi, Hex } from "viem";
import type { ContractArtifacts, ContractName } from "../src/chain/artifacts.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const ARTIFACTS_PATH = join(ROOT, "src/chain/contracts/artifacts.json");

const CONTRACTS: Record<ContractName, string> = {
  TestUSDC: "contracts/TestUSDC.sol",
  Multicall3Compatible: "contracts/Multicall3Compatible.sol",
};

// Pinned so the same sources always give the same bytes. cancun is supported by anvil's
// default hardfork and by Base, and avoids opcodes newer chains may not have.
const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: "cancun",
  // No CBOR metadata: the runtime code then depends only on what the code does; source edits
  // are still caught through sourceSha256.
  metadata: { appendCBOR: false },
  outputSelection: { "*": { "*": ["abi", "evm.deployedBytecode.object"] } },
} as const;

interface SolcOutput {
  errors?: { severity: "error" | "warning" | "info"; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: Abi; evm: { deployedBytecode: { object: string } } }>>;
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Compiles every contract; throws with solc's messages on any error or warning. */
export function compileContracts(): ContractArtifacts {
  const sources = Object.fromEntries(Object.values(CONTRACTS).map((path) => [path, { content: readFileSync(join(ROOT, path), "utf8") }]));
  const input = { language: "Solidity", sources, settings: SETTINGS };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;

  // Warnings fail the build too: the token backs real signatures, sloppiness there is a bug.
  const problems = (output.errors ?? []).filter((e) => e.severity !== "info");
  if (problems.length > 0) {
    throw new Error(`solc reported problems:\n${problems.map((p) => p.formattedMessage).join("\n")}`);
  }

  const entries = (Object.entries(CONTRACTS) as [ContractName, string][]).map(([name, path]) => {
    const compiled = output.contracts?.[path]?.[name];
    if (!compiled) throw new Error(`solc produced no output for ${name} in ${path}`);
    const source = sources[path]?.content ?? "";
    return [
      name,
      {
        sourceSha256: sha256(source),
        abi: compiled.abi,
        deployedBytecode: `0x${compiled.evm.deployedBytecode.object}` as Hex,
      },
    ] as const;
  });

  return {
    compiler: { version: solc.version() as string, settings: { ...SETTINGS } },
    contracts: Object.fromEntries(entries) as ContractArtifacts["contracts"],
  };
}

/** The exact file content, so the freshness test can compare bytes. */
export function renderArtifacts(artifacts: ContractArtifacts): string {
  return `${JSON.stringify(artifacts, null, 2)}\n`;
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  const artifacts = compileContracts();
  writeFileSync(ARTIFACTS_PATH, renderArtifacts(artifacts));
  for (const [name, artifact] of Object.entries(artifacts.contracts)) {
    console.log(`${name}: ${(artifact.deployedBytecode.length - 2) / 2} bytes of runtime code`);
  }
  console.log(`wrote ${ARTIFACTS_PATH}`);
}
