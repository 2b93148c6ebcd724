import type { PaymentRequirements } from "@x402/core/types";

/** The authorization a check signed: what the chain is asked about when the answer does not say. */
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

/** One HTTP exchange of a check as the payer's tap saw it: the unpaid request's 402, then the paid one. */
export interface Exchange {
  url: string;
  method: string;
  requestHeaders: Record<string, string>;
  status: number | null;
  headers: Record<string, string>;
  ms: number;
}

/** One check's paying fetch, with what it saw and what it signed. */
export interface PaidCall {
  fetch: typeof fetch;
  exchanges: Exchange[];
  signed(): Signed | null;
}

/**
 * How the checker pays (implemented by src/canary, the agent side: the x402 client with the
 * project's payment policy): a call that never signs more than `maxAtomic`, and hands the signed
 * authorization to `onSigned` before the paid request leaves.
 */
export type CheckPayer = (maxAtomic: bigint, onSigned: (signed: Signed) => Promise<void>) => PaidCall;
