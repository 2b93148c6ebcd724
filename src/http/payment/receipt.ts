import { encodePaymentResponseHeader } from "@x402/core/http";

export type Receipt = Parameters<typeof encodePaymentResponseHeader>[0];

/**
 * The settlement receipt under x402 v2's name and v1's `X-PAYMENT-RESPONSE`, which clients built
 * on v1 still read (the x402station MCP adapter among them); both exposed to browsers.
 */
export const RECEIPT_HEADERS = ["PAYMENT-RESPONSE", "X-PAYMENT-RESPONSE"] as const;

export function setReceipt(headers: Headers, receipt: Receipt): void {
  const encoded = encodePaymentResponseHeader(receipt);
  for (const name of RECEIPT_HEADERS) headers.set(name, encoded);
  headers.set("Access-Control-Expose-Headers", RECEIPT_HEADERS.join(", "));
}
