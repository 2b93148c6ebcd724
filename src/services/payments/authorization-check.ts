import type { PaymentRequirements } from "@x402/core/types";
import { isAddressEqual, recoverTypedDataAddress, type Address, type Hex } from "viem";

export interface Eip3009Authorization {
  from: Address;
  to: Address;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: Hex;
}

export interface SignedAuthorization {
  signature: Hex;
  authorization: Eip3009Authorization;
}

/** Checks a signature that is not a plain EOA one (ERC-1271, ERC-6492) on chain; true when valid. */
export type SmartSignatureCheck = (typedData: ReturnType<typeof typedDataOf>, signer: Address, signature: Hex) => Promise<boolean>;

/** The facilitator refuses authorizations that expire within this many seconds (x402 exact EVM). */
const VALID_BEFORE_MARGIN_S = 6n;
const EOA_SIGNATURE = /^0x[0-9a-fA-F]{130}$/;

/** EIP-3009's typed data: what a payer signs and USDC checks in transferWithAuthorization. */
export const TRANSFER_WITH_AUTHORIZATION_TYPES = {
  TransferWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
  ],
} as const;

/** The EIP-712 message USDC checks in transferWithAuthorization. */
export function typedDataOf(auth: Eip3009Authorization, req: PaymentRequirements) {
  const extra = (req.extra ?? {}) as { name?: string; version?: string };
  return {
    domain: { name: extra.name, version: extra.version, chainId: Number(req.network.split(":")[1]), verifyingContract: req.asset as Address },
    types: TRANSFER_WITH_AUTHORIZATION_TYPES,
    primaryType: "TransferWithAuthorization" as const,
    message: { ...auth, value: BigInt(auth.value), validAfter: BigInt(auth.validAfter), validBefore: BigInt(auth.validBefore) },
  };
}

/**
 * Why `signed` cannot pay `req` at `nowSeconds`, or null when it can. Runs before any ledger
 * lookup or facilitator call: everything in a settled authorization is public on chain, so a
 * payment must prove its signer before the service says anything about that authorization.
 */
export async function authorizationProblem(
  signed: SignedAuthorization,
  req: PaymentRequirements,
  nowSeconds: bigint,
  smart?: SmartSignatureCheck,
): Promise<string | null> {
  const auth = signed.authorization;
  if (!isAddressEqual(auth.to, req.payTo as Address)) return `the authorization pays ${auth.to}, not ${req.payTo}`;
  if (BigInt(auth.value) !== BigInt(req.amount)) return `the authorization is for ${auth.value}, the price is ${req.amount} (atomic units)`;
  if (BigInt(auth.validAfter) > nowSeconds) return "the authorization is not valid yet (validAfter is in the future)";
  if (BigInt(auth.validBefore) <= nowSeconds + VALID_BEFORE_MARGIN_S) return "the authorization has expired (validBefore has passed)";
  const typed = typedDataOf(auth, req);
  if (EOA_SIGNATURE.test(signed.signature)) {
    const signer = await recoverTypedDataAddress({ ...typed, signature: signed.signature }).catch(() => null);
    return signer && isAddressEqual(signer, auth.from) ? null : "the signature is not the authorizer's";
  }
  // A contract wallet's signature can only be checked on chain; without a chain reader the
  // facilitator's verification is the check.
  if (smart && !(await smart(typed, auth.from, signed.signature).catch(() => false))) return "the signature is not the authorizer's";
  return null;
}
