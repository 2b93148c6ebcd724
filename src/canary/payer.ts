import { x402Client, wrapFetchWithPayment } from "@x402/fetch";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { privateKeyToAccount } from "viem/accounts";
import { lookoutPolicy } from "@x402-lookout/client";
import type { CheckPayer, Exchange, Signed } from "../services/index.js";
import type { ownLookout } from "./own-lookout.js";

export interface PayerOptions {
  privateKey: `0x${string}`;
  network: string;
  lookout: ReturnType<typeof ownLookout>;
  /** The transport (SSRF-guarded). */
  fetch: typeof fetch;
}

const headersOf = (h: Headers) => Object.fromEntries([...h.entries()].map(([k, v]) => [k, k === "payment-signature" ? `[${v.length} characters]` : v]));

/**
 * The checker pays as any agent pays (decision 0051): @x402/fetch over an x402Client with its own
 * key, the project's payment policy (lookoutPolicy: a verdict bound to the exact requirement, the
 * hold as its price cap), a hook that refuses another network or more than the hold, and a tap
 * that keeps each exchange for the evidence.
 */
export function createCheckPayer(opts: PayerOptions): CheckPayer {
  const account = privateKeyToAccount(opts.privateKey);
  return (maxAtomic, onSigned) => {
    const exchanges: Exchange[] = [];
    let signed: Signed | null = null;
    const client = new x402Client().register(opts.network as `${string}:${string}`, new ExactEvmScheme(account));
    const policy = lookoutPolicy({ lookout: opts.lookout as never, maxPriceUsdc: (Number(maxAtomic) / 1e6).toFixed(6), failMode: "closed", unknown: "block" });
    client.onBeforePaymentCreation(policy);
    client.onBeforePaymentCreation(async ({ selectedRequirements: r }) => {
      if (r.network !== opts.network) return { abort: true, reason: `x402 Lookout canary: network ${r.network} is not ${opts.network}` };
      if (!/^\d+$/.test(r.amount) || BigInt(r.amount) > maxAtomic)
        return { abort: true, reason: `x402 Lookout canary: amount ${r.amount} is over ${maxAtomic}` };
    });
    client.onAfterPaymentCreation(async ({ paymentPayload, selectedRequirements }) => {
      signed = signedOf(account.address, paymentPayload, selectedRequirements);
      await onSigned(signed);
    });
    const tapped = policy.fetch(async (input, init) => {
      const req = new Request(input, init);
      const started = performance.now();
      const exchange: Exchange = { url: req.url, method: req.method, requestHeaders: headersOf(req.headers), status: null, headers: {}, ms: 0 };
      exchanges.push(exchange);
      const res = await opts.fetch(req);
      Object.assign(exchange, { status: res.status, headers: headersOf(res.headers), ms: Math.round(performance.now() - started) });
      return res;
    });
    return { fetch: wrapFetchWithPayment(tapped, client), exchanges, signed: () => signed };
  };
}

function signedOf(payer: string, payload: PaymentPayload, r: PaymentRequirements): Signed {
  const auth = (payload.payload as { authorization?: { nonce: string; validBefore: string; value: string } }).authorization;
  if (!auth) throw new Error("x402 Lookout canary: the payload has no EIP-3009 authorization");
  return {
    payer,
    payTo: r.payTo,
    asset: r.asset,
    network: r.network,
    amount: auth.value,
    nonce: auth.nonce,
    validBefore: new Date(Number(auth.validBefore) * 1000),
    requirement: r,
  };
}
