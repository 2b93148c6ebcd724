import { decodePaymentRequiredHeader } from "@x402/core/http";
import { atomicToUsdc } from "../../lib/usdc.js";

/**
 * Reading an x402 challenge from a 402: the v2 `PAYMENT-REQUIRED` header (base64 JSON), else a
 * v1 or v2 JSON body with `accepts`. A challenge counts only when at least one accept entry has
 * a scheme, a network and a whole-number amount; entries without those are ignored.
 */

export interface ChallengeAccept {
  scheme: string;
  network: string;
  asset: string | null;
  /** Atomic units (10^-6 USDC), a decimal integer string. */
  amountAtomic: string;
}

export interface Challenge {
  version: number;
  source: "header" | "body";
  accepts: ChallengeAccept[];
}

// Longer than any real price (10^24 USDC); numeric would hold it, but it is noise, not a price.
const MAX_AMOUNT_DIGITS = 30;

function amountOf(value: unknown): string | null {
  if (typeof value === "string" && value.length <= MAX_AMOUNT_DIGITS && /^\d+$/.test(value)) return BigInt(value).toString();
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return String(value);
  return null;
}

function readAccept(entry: unknown, version: number): ChallengeAccept | null {
  if (!entry || typeof entry !== "object" || Array.isArray(entry)) return null;
  const e = entry as Record<string, unknown>;
  if (typeof e.scheme !== "string" || typeof e.network !== "string") return null;
  // v2 calls the price `amount`, v1 `maxAmountRequired`; a server mixing them is still read.
  const [first, second] = version === 1 ? [e.maxAmountRequired, e.amount] : [e.amount, e.maxAmountRequired];
  const amountAtomic = amountOf(first) ?? amountOf(second);
  if (amountAtomic === null) return null;
  return { scheme: e.scheme, network: e.network, asset: typeof e.asset === "string" ? e.asset : null, amountAtomic };
}

function readChallenge(value: unknown, source: Challenge["source"]): Challenge | null {
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const obj = value as Record<string, unknown>;
  if (!Array.isArray(obj.accepts)) return null;
  const declared = obj.x402Version;
  const inferred = source === "header" ? 2 : obj.accepts.some((a) => a && typeof a === "object" && "amount" in a) ? 2 : 1;
  const version = declared === 1 || declared === 2 ? declared : inferred;
  const accepts = obj.accepts.map((a) => readAccept(a, version)).filter((a): a is ChallengeAccept => a !== null);
  return accepts.length > 0 ? { version, source, accepts } : null;
}

export function challengeFromHeader(value: string | string[] | undefined): Challenge | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return null;
  try {
    return readChallenge(decodePaymentRequiredHeader(raw.trim()), "header");
  } catch {
    return null;
  }
}

export function challengeFromBody(body: Buffer): Challenge | null {
  const text = body.toString("utf8").trim();
  if (!text.startsWith("{")) return null;
  try {
    return readChallenge(JSON.parse(text), "body");
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
 * known), else the first `exact` entry, else the first entry.
 */
export function selectAccept(challenge: Challenge, listing: PriceContext): ChallengeAccept {
  const firstExact = (list: ChallengeAccept[]) => list.find((a) => a.scheme === "exact") ?? list[0];
  let matching = challenge.accepts;
  if (listing.network) matching = matching.filter((a) => a.network === listing.network);
  if (listing.asset) matching = matching.filter((a) => a.asset?.toLowerCase() === listing.asset!.toLowerCase());
  const chosen = listing.network || listing.asset ? firstExact(matching) : undefined;
  return chosen ?? firstExact(challenge.accepts)!;
}

/** The listing's price in USDC (6 decimals) as a decimal string. */
export const priceUsdcOf = (challenge: Challenge, listing: PriceContext): string => atomicToUsdc(selectAccept(challenge, listing).amountAtomic);
