import { decodePaymentSignatureHeader } from "@x402/core/http";
import type { x402ResourceServer } from "@x402/core/server";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { isValidPaymentId, PAYMENT_IDENTIFIER } from "@x402/extensions/payment-identifier";
import { authorizationKey, authorizationProblem, type SignedAuthorization, type SmartSignatureCheck } from "../../services/index.js";
import { isAddress } from "viem";
import { z } from "zod";

/** A payment whose signer, payee, amount, network, asset and validity this process checked itself. */
export interface CheckedPayment {
  payload: PaymentPayload;
  /** What goes to the facilitator: the payload without the payer's payment-identifier. */
  forFacilitator: PaymentPayload;
  requirement: PaymentRequirements;
  signed: SignedAuthorization;
  key: string;
  identifier: string | null;
}

export type PaymentReading = { ok: true; payment: CheckedPayment } | { ok: false; status: 400 | 402; message: string };

const refuse = (message: string, status: 400 | 402 = 402): PaymentReading => ({ ok: false, status, message });

/**
 * Decodes a PAYMENT-SIGNATURE header and checks it locally, before any ledger lookup or
 * facilitator call: a malformed or forged payment costs nothing and learns nothing.
 */
export async function readPayment(
  header: string,
  req: PaymentRequirements,
  server: x402ResourceServer,
  opts: { nowSeconds: bigint; smart?: SmartSignatureCheck },
): Promise<PaymentReading> {
  let payload: PaymentPayload;
  try {
    const decoded: unknown = decodePaymentSignatureHeader(header);
    if (!isObject(decoded)) throw new Error("not an object");
    payload = decoded as unknown as PaymentPayload;
  } catch {
    return refuse("invalid_payment: the PAYMENT-SIGNATURE header is not a base64-encoded x402 PaymentPayload");
  }
  if (payload.x402Version !== 2) return refuse(`invalid_payment: x402Version ${String(payload.x402Version).slice(0, 40)} is not supported; use version 2`);
  const match = isObject(payload.accepted) ? server.findMatchingRequirements([req], payload) : undefined;
  if (!match) {
    return refuse(
      `invalid_payment: the payment does not match the accepted requirement (scheme exact, network ${req.network}, asset ${req.asset}, amount ${req.amount}, payTo ${req.payTo})`,
    );
  }
  const malformed = exactEvmPayloadProblem(payload.payload);
  if (malformed) return refuse(`invalid_payment: not a signed EIP-3009 authorization: ${malformed}`);
  const signed = payload.payload as unknown as SignedAuthorization;
  const problem = await authorizationProblem(signed, match, opts.nowSeconds, opts.smart);
  if (problem) return refuse(`invalid_payment: ${problem}`);

  const extensions = isObject(payload.extensions) ? payload.extensions : undefined;
  const { [PAYMENT_IDENTIFIER]: declared, ...others } = extensions ?? {};
  // The SDK's validatePaymentIdentifier compiles a JSON schema per call (a third of a paid
  // request's CPU); the id's own rule is one regular expression.
  const id: unknown = isObject(declared) && isObject(declared.info) ? declared.info.id : undefined;
  if (id !== undefined && (typeof id !== "string" || !isValidPaymentId(id))) {
    return refuse("invalid_payment_identifier: the payment-identifier id must be 16 to 128 letters, digits, hyphens or underscores", 400);
  }
  const forFacilitator = { ...payload, extensions: others };
  return { ok: true, payment: { payload, forFacilitator, requirement: match, signed, key: authorizationKey(payload), identifier: id ?? null } };
}

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
function exactEvmPayloadProblem(inner: unknown): string | null {
  const parsed = Eip3009Payload.safeParse(inner);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0]!;
  const where = issue.path.length ? `payload.${issue.path.join(".")}` : "payload";
  return `${where} ${issue.code === "invalid_type" ? `must be ${issue.expected}` : issue.message}`;
}

/** Whether the decoded header is an object at all (JSON may also decode to null, a number or a list). */
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
