import { z } from "zod";
import { isAddress } from "viem";

/**
 * The PAYMENT-SIGNATURE header decodes to any JSON the client chose. The ledger and the
 * facilitator expect an x402 v2 payload carrying a signed EIP-3009 authorization (the `exact`
 * EVM scheme our requirements advertise), and throw on anything else; a throw would read as a
 * facilitator outage (503) or a 500. So the shape is checked here, and garbage is a 402.
 */

const UINT256_MAX = 2n ** 256n - 1n;
// One check: zod runs every check of a field, so a BigInt() after a failed regex would throw.
const uint256 = z.string().refine((v) => /^\d{1,78}$/.test(v) && BigInt(v) <= UINT256_MAX, "must be a decimal uint256 string");
const address = z.string().refine((v) => isAddress(v), "must be a 20-byte hex address (checksummed when mixed case)");

const Eip3009Payload = z.object({
  // 65 bytes for an EOA; ERC-1271 and ERC-6492 signatures are longer, but not unbounded.
  signature: z.string().regex(/^0x(?:[0-9a-fA-F]{2}){1,8192}$/, "must be a hex signature"),
  authorization: z.object({
    from: address,
    to: address,
    value: uint256,
    validAfter: uint256,
    validBefore: uint256,
    nonce: z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be 32 bytes of hex"),
  }),
});

/** Why a decoded, requirement-matching payload cannot be a signed EIP-3009 payment; null when it can. */
export function exactEvmPayloadProblem(inner: unknown): string | null {
  const parsed = Eip3009Payload.safeParse(inner);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0]!;
  const where = issue.path.length ? `payload.${issue.path.join(".")}` : "payload";
  return `${where} ${issue.code === "invalid_type" ? `must be ${issue.expected}` : issue.message}`;
}

/** Whether the decoded header is an object at all (JSON may also decode to null, a number or a list). */
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
