import { encodePaymentRequiredHeader } from "@x402/core/http";
import type { Answer, PaymentRequired } from "./types.js";

/**
 * The 402 answer: the SDK only sets the `payment-required` header; the spec also wants the same
 * object as the JSON body and `www-authenticate: x402`.
 */
export function challengeAnswer(challenge: PaymentRequired): Answer {
  const header = encodePaymentRequiredHeader(challenge as Parameters<typeof encodePaymentRequiredHeader>[0]);
  return {
    status: 402,
    headers: {
      "payment-required": header,
      "www-authenticate": "x402",
      "cache-control": "no-store",
      "access-control-expose-headers": "payment-required, www-authenticate",
    },
    json: challenge,
  };
}

/** x402 SDK clients cap one payment at $1 unless configured otherwise (spendControls). */
const SDK_DEFAULT_SPEND_CAP_USDC = 1;

export function unpaidMessage(price: string): string {
  const base = `Payment required: ${price} USDC. Sign the accepted requirement and retry with the PAYMENT-SIGNATURE header.`;
  return Number(price) >= SDK_DEFAULT_SPEND_CAP_USDC
    ? `${base} This is at or above the x402 SDK's default $1 per-payment cap: raise it first, e.g. x402Client.fromConfig({ ..., spendControls: { maxAmountPerPayment: "$${price}" } }).`
    : base;
}
