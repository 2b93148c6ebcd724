import { requirementDigest, sameAddress, type QuoteChallenge } from "@x402-lookout/contracts/quote";
import { canonicalNetwork, isCanonicalUsdc } from "../../lib/assets.js";
import { selectAccept } from "./challenge.js";
import { tryNormalizeHttpUrl } from "../../lib/url-normalize.js";
import { atomicToUsdc } from "@x402-lookout/contracts/usdc";
import { type ListedQuote, type ObservedQuote, THRESHOLDS as T, type WarningCode } from "../signals/index.js";

/** One term of the agent's quote beside the listing's and the observed ones (null: nothing to compare with). */
export interface TermCheck {
  value: string | null;
  catalog: string | null;
  observed: string[];
  matches_catalog: boolean | null;
  matches_observed: boolean | null;
}

export interface QuoteCheck {
  /** The accepts entry checked, and the digest a signed verdict binds (docs/verdicts.md). */
  requirement_index: number;
  requirement_digest: string;
  terms: Record<"pay_to" | "asset" | "network" | "amount" | "resource_url" | "scheme", TermCheck>;
  /** The codes this quote adds to the stored verdict. */
  warnings: WarningCode[];
}

const sameText = (a: string | null, b: string | null) => a !== null && b !== null && a === b;
const sameResource = (a: string | null, b: string | null) => a !== null && b !== null && (tryNormalizeHttpUrl(a) ?? a) === (tryNormalizeHttpUrl(b) ?? b);
const sameNetwork = (a: string | null, b: string | null) => a !== null && b !== null && canonicalNetwork(a) === canonicalNetwork(b);

function term(value: string | null, catalog: string | null, observed: string[], same: (a: string | null, b: string | null) => boolean): TermCheck {
  return {
    value,
    catalog,
    observed,
    matches_catalog: catalog === null || value === null ? null : same(value, catalog),
    matches_observed: observed.length === 0 || value === null ? null : observed.some((o) => same(value, o)),
  };
}

// The catalog names the listed provider; without a listing, the prober's observations do.
const mismatch = (t: TermCheck) => t.matches_catalog === false || (t.matches_catalog === null && t.matches_observed === false);
const big = (a: string | null) => (a === null ? null : BigInt(a));

/** The agent's quote against the listing's terms and the observed history (pure but for the digest). */
export async function checkQuote(challenge: QuoteChallenge, listed: ListedQuote | null, observed: ObservedQuote | null): Promise<QuoteCheck> {
  // The entry an agent would sign for this listing: the one the prober prices it by.
  const q = selectAccept(challenge, { network: listed?.network ?? observed?.live?.network ?? null, asset: listed?.asset ?? null });
  const index = challenge.accepts.indexOf(q);
  const seen = observed?.seen;
  const terms = {
    pay_to: term(q.payTo, listed?.payTo ?? null, seen?.pay_to ?? [], sameAddress),
    asset: term(q.asset, listed?.asset ?? null, seen?.asset ?? [], sameAddress),
    network: term(q.network, listed?.network ?? null, seen?.network ?? [], sameNetwork),
    amount: term(q.amount, listed?.amount ?? null, seen?.amount ?? [], sameText),
    resource_url: term(q.resourceUrl, listed?.url ?? null, seen?.resource_url ?? [], sameResource),
    scheme: term(q.scheme, null, seen?.scheme ?? [], sameText),
  };
  const warnings: WarningCode[] = [];
  // Any entry that reads two ways: the agent's client may sign it whatever the rest says (selectAccept picks it).
  if (q.malformed !== null) warnings.push("malformed_quote");
  if (mismatch(terms.pay_to)) warnings.push("pay_to_mismatch");
  if (mismatch(terms.network)) warnings.push("network_mismatch");
  const usdc = isCanonicalUsdc(q.network, q.asset);
  if (usdc === false || mismatch(terms.asset)) warnings.push("asset_not_usdc");
  // A price above every price observed (and the listed one) is the trap the agent would sign.
  const references = [big(observed?.highestAmount7d ?? null), big(listed?.amount ?? null)].filter((r): r is bigint => r !== null);
  if (references.length > 0 && BigInt(q.amount) > references.reduce((a, b) => (a > b ? a : b))) warnings.push("price_switch");
  if (terms.amount.matches_catalog === false) warnings.push("price_mismatch");
  if (usdc) {
    const price = Number(atomicToUsdc(q.amount));
    if (price >= T.decoyPriceUsdc) warnings.push("decoy_price_extreme");
    else if (price >= T.suspiciousPriceUsdc) warnings.push("suspicious_high_price");
  }
  return { requirement_index: index, requirement_digest: await requirementDigest(q), terms, warnings };
}
