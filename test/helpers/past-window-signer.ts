import type { PaymentRequirements } from "@x402/core/types";
import { authorizationTypes, findDefaultAsset } from "@x402/evm";
import { ExactEvmSchemeV1 } from "@x402/evm/exact/v1/client";
import { getAddress, toHex } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";

/** What an x402 client registers per network: signs an `exact` payload for one requirement. */
export interface ExactSigner {
  readonly scheme: "exact";
  /** Lets the client's default spend controls recognise USDC, as the SDK's own schemes do. */
  readonly findDefaultAsset: typeof findDefaultAsset;
  createPaymentPayload(x402Version: number, req: PaymentRequirements): Promise<{ x402Version: number; payload: Record<string, unknown> }>;
}

/**
 * The SDK's own v1 signer, which signs `validAfter = now - 600` as the official Python SDK and
 * older @x402/evm releases do, answering a v2 requirement (the v1 names its fields differently).
 */
export function sdkV1Signer(account: PrivateKeyAccount): ExactSigner {
  const v1 = new ExactEvmSchemeV1(account);
  return {
    scheme: "exact",
    findDefaultAsset,
    async createPaymentPayload(x402Version, req) {
      const asV1 = { ...req, network: "base-sepolia", maxAmountRequired: req.amount, resource: "", description: "", mimeType: "" };
      const signed = await v1.createPaymentPayload(1, asV1 as never);
      return { x402Version, payload: signed.payload as Record<string, unknown> };
    },
  };
}

/** An EIP-3009 signer whose window opens `toleranceSeconds` before its own clock: a small stand-in for 600. */
export function pastWindowSigner(account: PrivateKeyAccount, toleranceSeconds: number, chainId: number): ExactSigner {
  return {
    scheme: "exact",
    findDefaultAsset,
    async createPaymentPayload(x402Version, req) {
      const now = BigInt(Math.floor(Date.now() / 1000));
      const message = {
        from: account.address,
        to: getAddress(req.payTo),
        value: BigInt(req.amount),
        validAfter: now - BigInt(toleranceSeconds),
        validBefore: now + BigInt(req.maxTimeoutSeconds),
        nonce: toHex(crypto.getRandomValues(new Uint8Array(32))),
      };
      const domain = { name: String(req.extra?.name), version: String(req.extra?.version), chainId, verifyingContract: getAddress(req.asset) };
      const signature = await account.signTypedData({ domain, types: authorizationTypes, primaryType: "TransferWithAuthorization", message });
      const authorization = { ...message, value: req.amount, validAfter: message.validAfter.toString(), validBefore: message.validBefore.toString() };
      return { x402Version, payload: { authorization, signature } };
    },
  };
}
