import { x402Client } from "@x402/core/client";
import type { Network } from "@x402/core/types";
import type { ClientEvmSigner } from "@x402/evm";
import { wrapFetchWithPayment } from "@x402/fetch";

/** Base mainnet and Base Sepolia: the networks the service charges on. */
export const DEFAULT_NETWORKS: readonly Network[] = ["eip155:8453", "eip155:84532"];

/** Set when a request of the call carried a signed payment. */
export interface PaymentTrace {
  sent: boolean;
  /** The PAYMENT-SIGNATURE sent: the same one collects an answer whose settlement was pending. */
  header?: string;
}

/**
 * A fetch that answers one x402 challenge through @x402/fetch with the caller's signer, paying
 * at most `capUsdc` (the SDK's spend control refuses anything above), and records in `trace`
 * whether a payment left the process. @x402/evm is an optional peer: only a signer needs it.
 */
export async function payingFetch(
  inner: typeof fetch,
  signer: ClientEvmSigner,
  networks: readonly Network[],
  capUsdc: string,
  trace: PaymentTrace,
): Promise<typeof fetch> {
  const { ExactEvmScheme } = await import("@x402/evm/exact/client");
  const client = x402Client.fromConfig({
    schemes: networks.map((network) => ({ network, client: new ExactEvmScheme(signer) })),
    spendControls: { maxAmountPerPayment: `$${capUsdc}` },
  });
  // A fresh payment-identifier per payment: only it can collect the answer of a payment whose
  // settlement the service could not confirm in time (everything else in a payment is public).
  client.onBeforePaymentCreation(async ({ paymentRequired }) => {
    paymentRequired.extensions = withPaymentId({ ...paymentRequired.extensions });
  });
  return wrapFetchWithPayment(tracing(inner, trace), client);
}

/**
 * Fills the x402 payment-identifier extension the service declared with a fresh id, as
 * @x402/extensions' appendPaymentIdentifierToExtensions does (a test holds the two equal).
 */
export function withPaymentId(extensions: Record<string, unknown>): Record<string, unknown> {
  const declared = extensions["payment-identifier"] as { info?: Record<string, unknown> } | undefined;
  if (typeof declared?.info === "object" && declared.info !== null && typeof declared.info.required === "boolean")
    declared.info.id = `pay_${crypto.randomUUID().replace(/-/g, "")}`;
  return extensions;
}

/** The plain fetch for a call that pays nothing, tracing all the same. */
export function tracing(inner: typeof fetch, trace: PaymentTrace): typeof fetch {
  return (input, init) => {
    const req = input instanceof Request && init === undefined ? input : new Request(input, init);
    const header = req.headers.get("payment-signature") ?? req.headers.get("x-payment");
    if (header) Object.assign(trace, { sent: true, header });
    // @x402/fetch puts this CORS response header on the paid request: it pays nothing and only names the SDK.
    req.headers.delete("access-control-expose-headers");
    // The caller's own signal goes on, not the copy's: a Request follows its source signal only
    // weakly, so once the copy is collected a time-out would no longer reach the request.
    return init?.signal ? inner(req, { signal: init.signal }) : inner(req);
  };
}
