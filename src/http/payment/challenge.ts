import type { Context } from "hono";
import { encodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequired } from "./types.js";

/**
 * The 402 answer: the SDK only sets the `payment-required` header; the spec also wants the same
 * object as the JSON body and `www-authenticate: x402`.
 */
export function paymentRequiredResponse(c: Context, challenge: PaymentRequired): Response {
  c.header("payment-required", encodePaymentRequiredHeader(challenge as Parameters<typeof encodePaymentRequiredHeader>[0]));
  c.header("www-authenticate", "x402");
  c.header("cache-control", "no-store");
  c.header("access-control-expose-headers", "payment-required, www-authenticate");
  return c.json(challenge, 402);
}
