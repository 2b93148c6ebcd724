/**
 * The terms of an x402 quote (one `accepts` entry of a 402 challenge, with the challenge's
 * version and resource), read the same way by the prober, the preflight routes and the client.
 * Pure: no Node built-ins, so the client runs it in any runtime with WebCrypto.
 */
export interface QuoteTerms {
  x402Version: number;
  scheme: string;
  network: string;
  asset: string | null;
  payTo: string | null;
  /** Atomic units of the asset, a decimal integer string without leading zeros. */
  amount: string;
  resourceUrl: string | null;
  maxTimeoutSeconds: number | null;
}

/** A challenge as read: its version and its readable accept entries, in order. */
export interface QuoteChallenge {
  x402Version: number;
  accepts: QuoteTerms[];
}

// Longer than any real price (10^24 USDC); numeric would hold it, but it is noise, not a price.
const MAX_AMOUNT_DIGITS = 30;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown) => (typeof v === "string" && v.length > 0 ? v : null);

function amountOf(value: unknown): string | null {
  if (typeof value === "string" && value.length <= MAX_AMOUNT_DIGITS && /^\d+$/.test(value)) return BigInt(value).toString();
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return String(value);
  return null;
}

function termsOf(e: Record<string, unknown>, version: number, resourceUrl: string | null): QuoteTerms | null {
  if (typeof e.scheme !== "string" || typeof e.network !== "string") return null;
  // v2 calls the price `amount`, v1 `maxAmountRequired`; a server mixing them is still read.
  const [first, second] = version === 1 ? [e.maxAmountRequired, e.amount] : [e.amount, e.maxAmountRequired];
  const amount = amountOf(first) ?? amountOf(second);
  if (amount === null) return null;
  const timeout = typeof e.maxTimeoutSeconds === "number" && Number.isSafeInteger(e.maxTimeoutSeconds) ? e.maxTimeoutSeconds : null;
  // v1 names the resource in each entry; v2 once, beside `accepts`.
  const resource = version === 1 ? (text(e.resource) ?? resourceUrl) : (resourceUrl ?? text(e.resource));
  return {
    x402Version: version,
    scheme: e.scheme,
    network: e.network,
    asset: text(e.asset),
    payTo: text(e.payTo),
    amount,
    resourceUrl: resource,
    maxTimeoutSeconds: timeout,
  };
}

/**
 * A v1 or v2 challenge object (a 402 body, or the decoded `PAYMENT-REQUIRED` header). Entries
 * without a scheme, a network and a whole-number amount are skipped; none readable is null.
 */
export function readChallengeObject(value: unknown, versionHint?: number): QuoteChallenge | null {
  if (!isObject(value) || !Array.isArray(value.accepts)) return null;
  const declared = value.x402Version;
  const inferred = versionHint ?? (value.accepts.some((a) => isObject(a) && "amount" in a) ? 2 : 1);
  const version = declared === 1 || declared === 2 ? declared : inferred;
  const resourceUrl = isObject(value.resource) ? text(value.resource.url) : text(value.resource);
  const accepts = value.accepts.flatMap((a) => (isObject(a) ? (termsOf(a, version, resourceUrl) ?? []) : []));
  return accepts.length > 0 ? { x402Version: version, accepts } : null;
}

/** The base64 `PAYMENT-REQUIRED` header value as a challenge (v2); null when unreadable. */
export function readChallengeHeader(value: string): QuoteChallenge | null {
  try {
    const bytes = Uint8Array.from(atob(value.trim()), (c) => c.charCodeAt(0));
    return readChallengeObject(JSON.parse(new TextDecoder().decode(bytes)), 2);
  } catch {
    return null;
  }
}

/** What an agent hands preflight: the 402 body object or the base64 header value. */
export const readPaymentRequired = (value: unknown): QuoteChallenge | null =>
  typeof value === "string" ? readChallengeHeader(value) : readChallengeObject(value);

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** EVM addresses compare without their checksum case; other chains' (base58) are case-sensitive. */
export const sameAddress = (a: string | null, b: string | null) => a !== null && b !== null && canonicalAddress(a) === canonicalAddress(b);
export const canonicalAddress = (a: string) => (EVM_ADDRESS.test(a) ? a.toLowerCase() : a);

/** The canonical text a requirement digest is taken over (docs/verdicts.md). */
export function canonicalTerms(t: QuoteTerms): string {
  const address = (a: string | null) => (a === null ? null : canonicalAddress(a));
  return JSON.stringify([t.x402Version, t.scheme, t.network, address(t.asset), address(t.payTo), t.amount, t.resourceUrl, t.maxTimeoutSeconds]);
}

/** sha256 of the canonical terms, base64url without padding: what a signed verdict is bound to. */
export async function requirementDigest(t: QuoteTerms): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonicalTerms(t))));
  return btoa(String.fromCharCode(...hash))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}
