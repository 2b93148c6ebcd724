import { readChallengeHeader, readChallengeObject, type QuoteChallenge, type QuoteTerms } from "@x402-lookout/contracts/quote";
import { canonicalNetwork, sameAsset, usdcOf } from "../../lib/assets.js";

/**
 * Reading an x402 challenge from a 402: the v2 `PAYMENT-REQUIRED` header (base64 JSON), else a
 * v1 or v2 JSON body with `accepts` (packages/contracts/src/quote.ts reads the terms).
 */
export interface Challenge extends QuoteChallenge {
  source: "header" | "body";
}

export function challengeFromHeader(value: string | string[] | undefined): Challenge | null {
  const raw = Array.isArray(value) ? value[0] : value;
  const read = raw ? readChallengeHeader(raw) : null;
  return read ? { ...read, source: "header" } : null;
}

export function challengeFromBody(body: Buffer): Challenge | null {
  const text = body.toString("utf8").trim();
  if (!text.startsWith("{")) return null;
  try {
    const read = readChallengeObject(JSON.parse(text));
    return read ? { ...read, source: "body" } : null;
  } catch {
    return null;
  }
}

/** The challenge of a response: the header wins, the body is the fallback. */
export function parseChallenge(headers: Record<string, string | string[] | undefined>, body: Buffer): Challenge | null {
  return challengeFromHeader(headers["payment-required"]) ?? challengeFromBody(body);
}

export interface PriceContext {
  network: string | null;
  asset: string | null;
}

/**
 * The accept entry that prices the listing: the one on the listing's network (and asset, when
 * known), else the first `exact` entry, else the first entry. Networks compare as CAIP-2 (v1
 * names translated); assets compare case-sensitively except EVM addresses (Solana is base58).
 * A malformed entry comes first: a challenge whose terms read two ways is a trap whichever
 * entry a client picks.
 */
export function selectAccept(challenge: QuoteChallenge, listing: PriceContext): QuoteTerms {
  const malformed = challenge.accepts.find((a) => a.malformed !== null);
  if (malformed) return malformed;
  const firstExact = (list: QuoteTerms[]) => list.find((a) => a.scheme === "exact") ?? list[0];
  let matching = challenge.accepts;
  if (listing.network) matching = matching.filter((a) => canonicalNetwork(a.network) === canonicalNetwork(listing.network!));
  if (listing.asset) matching = matching.filter((a) => a.asset !== null && sameAsset(a.network, a.asset, listing.asset!));
  const chosen = listing.network || listing.asset ? firstExact(matching) : undefined;
  return chosen ?? firstExact(challenge.accepts)!;
}

/**
 * A quote's amount in USDC when it pays its network's USDC (lib/assets.ts, Solana included);
 * null for any other asset, whose amount stays in its own units in the stored terms.
 */
export const priceUsdcOf = (terms: QuoteTerms): string | null => (terms.malformed === null ? usdcOf(terms.network, terms.asset, terms.amount) : null);
