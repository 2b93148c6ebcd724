import { x402Client } from "@x402/core/client";
import type { PaymentPayload, PaymentRequired, PaymentRequirements } from "@x402/core/types";
import { authorizationTypes } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { getAddress, toHex, type Address } from "viem";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Devnet } from "../../src/chain/devnet.js";
import { createLocalFacilitator, type FacilitatorClient } from "../../src/chain/facilitator.js";
import { testUsdcAbi } from "../../src/chain/token-abi.js";
import { startTestDevnet } from "./helpers.js";

let devnet: Devnet;
let facilitator: FacilitatorClient;
let payer: PrivateKeyAccount;

beforeAll(async () => {
  devnet = await startTestDevnet();
  facilitator = createLocalFacilitator(devnet);
  const first = devnet.demoAccounts[0];
  if (!first) throw new Error("devnet has no demo accounts");
  payer = privateKeyToAccount(first.privateKey);
});

afterAll(async () => {
  await devnet?.stop();
});

function requirements(amount = "1000"): PaymentRequirements {
  return {
    scheme: "exact",
    network: devnet.network,
    asset: devnet.usdcAddress,
    amount,
    payTo: devnet.payTo,
    maxTimeoutSeconds: 300,
    extra: { name: "USDC", version: "2" },
  };
}

function paymentRequired(accepts: PaymentRequirements): PaymentRequired {
  return {
    x402Version: 2,
    resource: { url: "http://lookout.test/api/v1/preflight", description: "Preflight", mimeType: "application/json" },
    accepts: [accepts],
  };
}

/** The SDK's own client side: what @x402/fetch does after decoding a 402. */
function payWith(account: PrivateKeyAccount, accepts: PaymentRequirements): Promise<PaymentPayload> {
  const client = new x402Client().register(devnet.network, new ExactEvmScheme(account));
  return client.createPaymentPayload(paymentRequired(accepts));
}

function balanceOf(address: Address): Promise<bigint> {
  return devnet.publicClient.readContract({
    address: devnet.usdcAddress,
    abi: testUsdcAbi,
    functionName: "balanceOf",
    args: [address],
  });
}

/** A correctly signed authorization with a chosen validity window, as a hand-made client would send. */
async function signedPayload(accepts: PaymentRequirements, window: { validAfter: bigint; validBefore: bigint }): Promise<PaymentPayload> {
  const nonce = toHex(crypto.getRandomValues(new Uint8Array(32)));
  const message = {
    from: payer.address,
    to: getAddress(accepts.payTo),
    value: BigInt(accepts.amount),
    validAfter: window.validAfter,
    validBefore: window.validBefore,
    nonce,
  };
  const signature = await payer.signTypedData({
    domain: { name: "USDC", version: "2", chainId: devnet.chainId, verifyingContract: devnet.usdcAddress },
    types: authorizationTypes,
    primaryType: "TransferWithAuthorization",
    message,
  });
  return {
    x402Version: 2,
    resource: paymentRequired(accepts).resource,
    accepted: accepts,
    payload: {
      authorization: {
        ...message,
        value: accepts.amount,
        validAfter: window.validAfter.toString(),
        validBefore: window.validBefore.toString(),
      },
      signature,
    },
  };
}

const nowSeconds = () => BigInt(Math.floor(Date.now() / 1000));

describe("a 0.001 USDC payment through the local facilitator", () => {
  let payload: PaymentPayload;
  let settledTx: string;

  it("is verified, settled on chain, and moves exactly 1000 units", async () => {
    const accepts = requirements();
    const payerBefore = await balanceOf(payer.address);
    const payToBefore = await balanceOf(devnet.payTo);

    payload = await payWith(payer, accepts);
    expect(payload.x402Version).toBe(2);
    expect(payload.accepted).toMatchObject({ scheme: "exact", network: "eip155:84532", amount: "1000" });

    const verified = await facilitator.verify(payload, accepts);
    expect(verified).toMatchObject({ isValid: true, payer: payer.address });

    const settled = await facilitator.settle(payload, accepts);
    expect(settled).toMatchObject({ success: true, network: "eip155:84532", payer: payer.address });
    expect(settled.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    settledTx = settled.transaction;

    // settle() returned after the receipt, so the balances have already moved.
    expect(await balanceOf(payer.address)).toBe(payerBefore - 1000n);
    expect(await balanceOf(devnet.payTo)).toBe(payToBefore + 1000n);

    const receipt = await devnet.publicClient.getTransactionReceipt({ hash: settledTx as `0x${string}` });
    expect(receipt.status).toBe("success");
    expect(getAddress(receipt.from)).toBe(devnet.facilitatorAccount.address);
  });

  it("cannot be replayed: verify refuses the used nonce and settle moves nothing", async () => {
    const accepts = requirements();
    const payerBefore = await balanceOf(payer.address);
    const payToBefore = await balanceOf(devnet.payTo);

    const verified = await facilitator.verify(payload, accepts);
    expect(verified.isValid).toBe(false);
    // The SDK diagnoses the failed simulation through Multicall3.tryAggregate.
    expect(verified.invalidReason).toBe("invalid_exact_evm_nonce_already_used");

    const settled = await facilitator.settle(payload, accepts);
    // settle re-checks without simulating, so the token's own revert is what refuses it.
    expect(settled).toMatchObject({ success: false, errorReason: "invalid_exact_evm_nonce_already_used" });
    expect(settled.transaction).not.toBe(settledTx);

    expect(await balanceOf(payer.address)).toBe(payerBefore);
    expect(await balanceOf(devnet.payTo)).toBe(payToBefore);
  });

  it("reports the settlement to getSupported callers as exact on eip155:84532", async () => {
    const supported = await facilitator.getSupported();
    expect(supported.kinds).toContainEqual({ x402Version: 2, scheme: "exact", network: "eip155:84532" });
    expect(supported.signers["eip155:*"]).toEqual([devnet.facilitatorAccount.address]);
  });
});

describe("refused payments", () => {
  it("refuses an expired authorization in verify and in settle", async () => {
    const accepts = requirements();
    const payerBefore = await balanceOf(payer.address);
    const expired = await signedPayload(accepts, { validAfter: 0n, validBefore: nowSeconds() - 60n });

    const verified = await facilitator.verify(expired, accepts);
    expect(verified).toMatchObject({ isValid: false, invalidReason: "invalid_exact_evm_payload_authorization_valid_before" });

    const settled = await facilitator.settle(expired, accepts);
    expect(settled).toMatchObject({ success: false, errorReason: "invalid_exact_evm_payload_authorization_valid_before" });
    expect(await balanceOf(payer.address)).toBe(payerBefore);
  });

  it("lets the token itself reject an expired authorization", async () => {
    const accepts = requirements();
    const expired = await signedPayload(accepts, { validAfter: 0n, validBefore: nowSeconds() - 60n });
    const { authorization, signature } = expired.payload as {
      authorization: { from: Address; to: Address; value: string; validAfter: string; validBefore: string; nonce: `0x${string}` };
      signature: `0x${string}`;
    };
    await expect(
      devnet.publicClient.simulateContract({
        account: devnet.facilitatorAccount,
        address: devnet.usdcAddress,
        abi: testUsdcAbi,
        functionName: "transferWithAuthorization",
        args: [
          authorization.from,
          authorization.to,
          BigInt(authorization.value),
          BigInt(authorization.validAfter),
          BigInt(authorization.validBefore),
          authorization.nonce,
          signature,
        ],
      }),
    ).rejects.toThrow(/authorization is expired/);
  });

  it("refuses a payment whose amount differs from the requirement", async () => {
    const payload = await payWith(payer, requirements("999"));
    const verified = await facilitator.verify(payload, requirements());
    expect(verified).toMatchObject({
      isValid: false,
      invalidReason: "invalid_exact_evm_payload_authorization_value_mismatch",
    });
  });

  it("refuses a payer without enough USDC", async () => {
    const broke = privateKeyToAccount(generatePrivateKeyHex());
    const accepts = requirements();
    const payload = await payWith(broke, accepts);
    const verified = await facilitator.verify(payload, accepts);
    expect(verified).toMatchObject({ isValid: false, invalidReason: "invalid_exact_evm_insufficient_balance" });
  });
});

function generatePrivateKeyHex(): `0x${string}` {
  return toHex(crypto.getRandomValues(new Uint8Array(32)));
}
