import type { PaymentRequired, PaymentRequirements } from "@x402/core/types";
import { readAmount } from "@x402-lookout/contracts/amount";
import { readPaymentRequired, requirementAmount, requirementDigest } from "@x402-lookout/contracts/quote";
import { usdcToAtomic } from "@x402-lookout/contracts/usdc";
import type { PreflightReport } from "../types.js";
import { PreflightUnavailableError, QuoteRefusedError, type BlockReason } from "./errors.js";
import type { GuardPolicy } from "./policy.js";

/** The agent's request a payment is being made for, as the guard saw it. */
export interface GuardedCall {
  /** The endpoint checked (the request without query and fragment). */
  url: string;
  /** The URL the agent requested, as sent. */
  requested?: string;
  /** Unknown to an x402Client hook alone (lookoutPolicy): the service then takes the listing's. */
  method?: string;
  /** Why the guard refused this call's payment: thrown to the agent instead of the SDK's wrapped error. */
  refusal?: unknown;
}

export interface QuoteVerdict {
  report: PreflightReport;
  reasons: BlockReason[];
  cached: boolean;
  digest: string;
}

/**
 * The verdict on the exact requirement the x402 client is about to sign: the 402 narrowed to that
 * one entry goes to preflight (so the service checks exactly it), and the payment may go ahead
 * only when the signed verdict is bound to that requirement's digest and nothing in it blocks.
 */
export async function quoteVerdict(
  call: GuardedCall,
  paymentRequired: PaymentRequired,
  selected: PaymentRequirements,
  deps: {
    ask: (
      key: string,
      input: { url: string; method?: string; paymentRequired: Record<string, unknown> },
    ) => { value: Promise<PreflightReport>; cached: boolean };
    policy: GuardPolicy;
    reasons: (r: PreflightReport) => BlockReason[];
  },
): Promise<QuoteVerdict> {
  const narrowed = { ...paymentRequired, accepts: [selected] } as unknown as Record<string, unknown>;
  const terms = readPaymentRequired(narrowed)?.accepts[0];
  if (!terms) throw new PreflightUnavailableError(call.url, new Error("the 402's selected requirement cannot be read"));
  // Refused before asking, whoever calls: no outage and no failMode may let a requirement that reads two ways be signed.
  if (terms.malformed !== null) throw new QuoteRefusedError(call.url, "malformed_quote", `the requirement reads more than one way (${terms.malformed})`);
  const digest = await requirementDigest(terms);
  const method = call.method === undefined ? {} : { method: call.method };
  const { value, cached } = deps.ask(`${call.method ?? "*"} ${call.url} ${digest}`, { url: call.url, ...method, paymentRequired: narrowed });
  const report = await value;
  const bound = (report as Partial<{ verified: { requirement_digest: string | null } }>).verified;
  if (!bound) throw new PreflightUnavailableError(call.url, new Error("the verdict's signature was not verified (the Lookout client needs verifyVerdicts on)"));
  const reasons = deps.reasons(report);
  if (bound.requirement_digest !== digest) reasons.push("requirement_mismatch");
  if (overCap(terms.amount, deps.policy.maxPriceUsdc) && !reasons.includes("price_above_max")) reasons.push("price_above_max");
  return { report, reasons, cached, digest };
}

/** The cap applies to the amount being signed, not only to the price the prober saw (USDC's 6 decimals; another asset is critical anyway). */
export function overCap(amount: string | null, cap: string | undefined): boolean {
  const read = readAmount(amount);
  // An amount that is not one canonical integer has no price to hold under the cap.
  return cap !== undefined && amount !== null && (!read.ok || read.value > BigInt(usdcToAtomic(cap)));
}

/**
 * Why the selected requirement reads more than one way (its amount, or a timeout that is not an
 * integer), by the contracts' one reader, as the service reads it; null when it reads one way.
 */
export function malformedOf(paymentRequired: PaymentRequired, selected: PaymentRequirements): string | null {
  const narrowed = { ...paymentRequired, accepts: [selected] } as unknown as Record<string, unknown>;
  return readPaymentRequired(narrowed)?.accepts[0]?.malformed ?? null;
}

/** What the x402 client will sign for the selected requirement (the one reader's text; malformed ones are refused before). */
export function signedAmount(paymentRequired: PaymentRequired, selected: PaymentRequirements): string {
  const version = (paymentRequired as { x402Version?: unknown }).x402Version === 1 ? 1 : 2;
  return requirementAmount(selected as { amount?: unknown; maxAmountRequired?: unknown }, version).amount;
}

/** The resource the 402 claims to be for: v2 names it once, v1 in each requirement; null when it names none. */
export function resourceOf(paymentRequired: PaymentRequired, selected: PaymentRequirements): string | null {
  const v2 = (paymentRequired as { resource?: { url?: unknown } }).resource?.url;
  const v1 = (selected as { resource?: unknown }).resource;
  const found = typeof v2 === "string" ? v2 : v1;
  return typeof found === "string" && found !== "" ? found : null;
}
