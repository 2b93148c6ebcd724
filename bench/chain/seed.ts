import { encodeFunctionData, keccak256, parseAbi, parseSignature, toHex, type Address, type Hex } from "viem";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import type { Devnet } from "../../src/chain/devnet.js";
import { testUsdcAbi } from "../../src/chain/token-abi.js";
import { NETWORK_INFO } from "../../src/lib/networks.js";
import { TRANSFER_WITH_AUTHORIZATION_TYPES } from "../../src/services/payments/authorization-check.js";
import { devnetWallet } from "./wallet.js";

const multicall = parseAbi([
  "function aggregate3((address target, bool allowFailure, bytes callData)[] calls) payable returns ((bool success, bytes returnData)[])",
]);
/** Settlements per Multicall3 transaction: under anvil's 30M block gas with a fresh payee each. */
const PER_TX = 250;

export const payToAddresses = (n: number): Address[] => Array.from({ length: n }, (_, i) => `0x${keccak256(toHex(`bench-pay-to-${i}`)).slice(-40)}` as Address);
export const payerAccounts = (n: number): PrivateKeyAccount[] => Array.from({ length: n }, (_, i) => privateKeyToAccount(keccak256(toHex(`bench-payer-${i}`))));

/** One signed transferWithAuthorization call of `payer` to `to`, as a facilitator submits it. */
export async function settlementCall(devnet: Pick<Devnet, "chainId" | "usdcAddress">, payer: PrivateKeyAccount, to: Address, value: bigint): Promise<Hex> {
  const { name, version } = NETWORK_INFO["eip155:84532"].usdc.eip712;
  const message = {
    from: payer.address,
    to,
    value,
    validAfter: 0n,
    validBefore: 2n ** 40n,
    nonce: keccak256(toHex(`${payer.address}:${Math.random()}:${performance.now()}`)),
  };
  const signature = await payer.signTypedData({
    domain: { name, version, chainId: devnet.chainId, verifyingContract: devnet.usdcAddress },
    types: TRANSFER_WITH_AUTHORIZATION_TYPES,
    primaryType: "TransferWithAuthorization",
    message,
  });
  const { r, s, v } = parseSignature(signature);
  return encodeFunctionData({
    abi: testUsdcAbi,
    functionName: "transferWithAuthorization",
    args: [message.from, to, value, 0n, message.validBefore, message.nonce, Number(v), r, s],
  });
}

/**
 * `transfers` EIP-3009 settlements to `payTos` (round robin) from `payers`, sent through Multicall3
 * by the facilitator's account, PER_TX a transaction. Returns the first and last block they fill.
 */
export async function seedSettlements(devnet: Devnet, payTos: readonly Address[], payers: readonly PrivateKeyAccount[], transfers: number) {
  const wallet = devnetWallet(devnet);
  let minted: Hex | undefined;
  for (const p of payers)
    minted = await wallet.writeContract({ address: devnet.usdcAddress, abi: testUsdcAbi, functionName: "mint", args: [p.address, 10n ** 12n] });
  // The mints' own Transfer logs stay below `first`, out of the seeded range.
  const first = (await devnet.publicClient.waitForTransactionReceipt({ hash: minted! })).blockNumber + 1n;
  let last: Hex | undefined;
  for (let i = 0; i < transfers; i += PER_TX) {
    const calls = [];
    for (let j = i; j < Math.min(transfers, i + PER_TX); j++) {
      calls.push({
        target: devnet.usdcAddress,
        allowFailure: false,
        callData: await settlementCall(devnet, payers[j % payers.length]!, payTos[j % payTos.length]!, 1000n),
      });
    }
    last = await wallet.writeContract({ address: devnet.multicall3Address, abi: multicall, functionName: "aggregate3", args: [calls], gas: 29_000_000n });
  }
  const receipt = await devnet.publicClient.waitForTransactionReceipt({ hash: last! });
  if (receipt.status !== "success") throw new Error("a seeding batch reverted");
  return { first, last: receipt.blockNumber };
}
