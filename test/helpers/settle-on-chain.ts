import { randomBytes } from "node:crypto";
import { createWalletClient, http, parseSignature, toHex, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { Devnet } from "../../src/chain/devnet.js";
import { testUsdcAbi } from "../../src/chain/token-abi.js";
import { NETWORK_INFO } from "../../src/lib/networks.js";
import { TRANSFER_WITH_AUTHORIZATION_TYPES } from "../../src/services/payments/authorization-check.js";

/**
 * An EIP-3009 settlement on the devnet, as a facilitator makes it: the payer signs
 * TransferWithAuthorization, the facilitator's account sends transferWithAuthorization. Returns
 * once mined, with the transaction and the nonce.
 */
export async function settleOnChain(devnet: Devnet, payerKey: Hex, payTo: string, value: bigint): Promise<{ tx: Hex; nonce: Hex; payer: Address }> {
  const payer = privateKeyToAccount(payerKey);
  const nonce = toHex(randomBytes(32));
  const validBefore = BigInt(Math.floor(Date.now() / 1000) + 3600);
  const { name, version } = NETWORK_INFO["eip155:84532"].usdc.eip712;
  const message = { from: payer.address, to: payTo as Address, value, validAfter: 0n, validBefore, nonce };
  const signature = await payer.signTypedData({
    domain: { name, version, chainId: devnet.chainId, verifyingContract: devnet.usdcAddress },
    types: TRANSFER_WITH_AUTHORIZATION_TYPES,
    primaryType: "TransferWithAuthorization",
    message,
  });
  const { r, s, v } = parseSignature(signature);
  const wallet = createWalletClient({ account: devnet.facilitatorAccount, chain: devnet.chain, transport: http(devnet.rpcUrl) });
  const tx = await wallet.writeContract({
    address: devnet.usdcAddress,
    abi: testUsdcAbi,
    functionName: "transferWithAuthorization",
    args: [payer.address, payTo as Address, value, 0n, validBefore, nonce, Number(v), r, s],
  });
  const receipt = await devnet.publicClient.waitForTransactionReceipt({ hash: tx });
  if (receipt.status !== "success") throw new Error("transferWithAuthorization reverted");
  return { tx, nonce, payer: payer.address };
}

/** A plain ERC-20 transfer: money moves, but no authorization was used (not an x402 settlement). */
export async function plainTransfer(devnet: Devnet, payerKey: Hex, payTo: string, value: bigint): Promise<Hex> {
  const wallet = createWalletClient({ account: privateKeyToAccount(payerKey), chain: devnet.chain, transport: http(devnet.rpcUrl) });
  const tx = await wallet.writeContract({ address: devnet.usdcAddress, abi: testUsdcAbi, functionName: "transfer", args: [payTo as Address, value] });
  await devnet.publicClient.waitForTransactionReceipt({ hash: tx });
  return tx;
}
