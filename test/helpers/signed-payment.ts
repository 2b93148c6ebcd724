import { x402Client } from "@x402/core/client";
import { decodePaymentRequiredHeader, decodePaymentSignatureHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { appendPaymentIdentifierToExtensions, PAYMENT_IDENTIFIER } from "@x402/extensions/payment-identifier";
import { privateKeyToAccount } from "viem/accounts";
import type { PaidService } from "./paid-service.js";

/**
 * A PAYMENT-SIGNATURE for `path`, signed by the real SDK client but not sent: what a payer holds
 * between signing and its request (or what a crashed request left claimed).
 */
export async function signedPayment(svc: PaidService, path: string, accountIndex: number, paymentId?: string): Promise<string> {
  const res = await fetch(`${svc.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  const required = decodePaymentRequiredHeader(res.headers.get("payment-required")!);
  if (paymentId) required.extensions = appendPaymentIdentifierToExtensions({ ...required.extensions }, paymentId);
  const account = privateKeyToAccount(svc.devnet.demoAccounts[accountIndex]!.privateKey);
  const client = x402Client.fromConfig({ schemes: [{ network: required.accepts[0]!.network, client: new ExactEvmScheme(account) }] });
  return encodePaymentSignatureHeader(await client.createPaymentPayload(required));
}

/** The same payment with its payment-identifier taken out (or changed): what anyone can rebuild from the chain. */
export function withIdentifier(header: string, paymentId: string | null): string {
  const payload = decodePaymentSignatureHeader(header) as PaymentPayload;
  const { [PAYMENT_IDENTIFIER]: _dropped, ...rest } = payload.extensions ?? {};
  const extensions = paymentId ? appendPaymentIdentifierToExtensions({ ...rest, [PAYMENT_IDENTIFIER]: { info: { required: false } } }, paymentId) : rest;
  return encodePaymentSignatureHeader({ ...payload, extensions });
}
