import { x402Client } from "@x402/core/client";
import { appendPaymentIdentifierToExtensions } from "@x402/extensions/payment-identifier";
import { wrapFetchWithPayment } from "@x402/fetch";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { privateKeyToAccount } from "viem/accounts";

export interface PayerOptions {
  spendCapUsd?: string;
  inner?: typeof fetch;
  /** Sends this x402 payment-identifier with the payment, as an agent that retries safely does. */
  paymentId?: string;
}

/** A fetch that pays x402 challenges with the real SDK client, signing with `privateKey`. */
export function x402PayingFetch(privateKey: `0x${string}`, { spendCapUsd, inner = fetch, paymentId }: PayerOptions = {}): typeof fetch {
  const account = privateKeyToAccount(privateKey);
  const client = x402Client.fromConfig({
    schemes: (["eip155:8453", "eip155:84532"] as const).map((network) => ({ network, client: new ExactEvmScheme(account) })),
    ...(spendCapUsd ? { spendControls: { maxAmountPerPayment: spendCapUsd } } : {}),
  });
  if (paymentId) {
    client.onBeforePaymentCreation(async ({ paymentRequired }) => {
      paymentRequired.extensions = appendPaymentIdentifierToExtensions({ ...(paymentRequired.extensions ?? {}) }, paymentId);
    });
  }
  return wrapFetchWithPayment(inner, client);
}
