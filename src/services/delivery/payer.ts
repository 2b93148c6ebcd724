import { x402Client, wrapFetchWithPayment } from "@x402/fetch";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { privateKeyToAccount } from "viem/accounts";
import { lookoutPolicy } from "@x402-lookout/client";
import type { ownLookout } from "./own-lookout.js";

/** The authorization the checker signed: what the chain is asked about when the answer does not say. */
export interface Signed {
  payer: string;
  payTo: string;
  asset: string;
  network: string;
  amount: string;
  nonce: string;
  validBefore: Date;
  requirement: PaymentRequirements;
}

/** One HTTP exchange of a check as the tap saw it: the unpaid request's 402, then the paid one. */
export interface Exchange {
  url: string;
  method: string;
  requestHeaders: Record<string, string>;
  status: number | null;
  headers: Record<string, string>;
  ms: number;
}

export interface PayerOptions {
  privateKey: `0x${string}`;
  network: string;
  /** No requirement above this is signed (atomic USDC): the ceiling, and what the budget holds for the check. */
  maxAtomic: bigint;
  lookout: ReturnType<typeof ownLookout>;
  /** The transport (SSRF-guarded in production). */
  fetch: typeof fetch;
  /** Called with the signed authorization before the paid request leaves: the ledger holds it first. */
  onSigned: (signed: Signed) => Promise<void>;
}

const headersOf = (h: Headers) => Object.fromEntries([...h.entries()].map(([k, v]) => [k, k === "payment-signature" ? `[${v.length} characters]` : v]));

/**
 * A paying fetch for one check, as any agent pays (decision 0051): @x402/fetch over an x402Client
 * with the checker's key, the project's payment policy (lookoutPolicy, its verdict bound to the
 * exact requirement and the ceiling), a hook that refuses another network or more than `maxAtomic`,
 * and a tap that keeps each exchange for the evidence.
 */
export function createPayer(opts: PayerOptions) {
  const account = privateKeyToAccount(opts.privateKey);
  const exchanges: Exchange[] = [];
  let signed: Signed | null = null;
  const client = new x402Client().register(opts.network as `${string}:${string}`, new ExactEvmScheme(account));
  const policy = lookoutPolicy({
    lookout: opts.lookout as never,
    maxPriceUsdc: (Number(opts.maxAtomic) / 1e6).toFixed(6),
    failMode: "closed",
    unknown: "block",
  });
  client.onBeforePaymentCreation(policy);
  client.onBeforePaymentCreation(async ({ selectedRequirements: r }) => {
    if (r.network !== opts.network) return { abort: true, reason: `x402 Lookout canary: network ${r.network} is not ${opts.network}` };
    if (!/^\d+$/.test(r.amount) || BigInt(r.amount) > opts.maxAtomic)
      return { abort: true, reason: `x402 Lookout canary: amount ${r.amount} is over ${opts.maxAtomic}` };
  });
  client.onAfterPaymentCreation(async ({ paymentPayload, selectedRequirements }) => {
    signed = signedOf(account.address, paymentPayload, selectedRequirements);
    await opts.onSigned(signed);
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
  return { address: account.address, fetch: wrapFetchWithPayment(tapped, client), exchanges, signed: () => signed };
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
