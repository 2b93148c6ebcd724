import { readAmount, type AmountProblem } from "./amount.js";

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
  /**
   * Atomic units of the asset, canonical decimal. For a malformed entry: what an x402 client
   * would sign (BigInt of the signed field), "0" when it cannot sign at all; never a price.
   */
  amount: string;
  resourceUrl: string | null;
  maxTimeoutSeconds: number | null;
  /** A `maxTimeoutSeconds` present but not an integer, as canonical JSON (a malformed entry): clients add it to the clock as written. */
  maxTimeoutText?: string;
  /** The entry's `extra` (EIP-712 domain, ...) as canonical JSON, null without one. */
  extra: string | null;
  /** Why the entry reads more than one way (docs/verdicts.md); null for a well-formed entry. */
  malformed: MalformedReason | null;
}

/**
 * A malformed entry: its amount missing, not canonical decimal, beyond uint256, or `amount` and
 * `maxAmountRequired` disagreeing; or a `maxTimeoutSeconds` that is not an integer (clients
 * compute `now + maxTimeoutSeconds`: the text "60" makes a validBefore millennia away).
 */
export type MalformedReason = `amount_${AmountProblem}` | "amounts_disagree" | "max_timeout_not_an_integer";

/** A challenge as read: its version and its entries, in order (malformed ones kept and marked). */
export interface QuoteChallenge {
  x402Version: number;
  accepts: QuoteTerms[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown) => (typeof v === "string" && v.length > 0 ? v : null);

/** JSON with object keys sorted at every depth: one text for one value. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isObject(value)) {
    const keys = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * The amount a requirement signs: v2 clients sign `amount`, v1 clients `maxAmountRequired`. The
 * signed field must be canonical, and the other, when present, must be the same text.
 */
export function requirementAmount(
  e: { amount?: unknown; maxAmountRequired?: unknown },
  version: number,
): { amount: string; malformed: MalformedReason | null } {
  const [signedField, otherField] = version === 1 ? [e.maxAmountRequired, e.amount] : [e.amount, e.maxAmountRequired];
  const signed = readAmount(signedField);
  if (!signed.ok) return { amount: (signed.signed ?? 0n).toString(), malformed: `amount_${signed.problem}` };
  if (otherField !== undefined && otherField !== signed.text) return { amount: signed.text, malformed: "amounts_disagree" };
  return { amount: signed.text, malformed: null };
}

/**
 * What a requirement's amount and timeout sign, and why it reads more than one way (the amount's
 * mark first): `maxTimeoutSeconds` is a safe integer, absent (null), or else kept as canonical JSON.
 */
export function readRequirement(
  e: { amount?: unknown; maxAmountRequired?: unknown; maxTimeoutSeconds?: unknown },
  version: number,
): { amount: string; maxTimeoutSeconds: number | null; maxTimeoutText?: string; malformed: MalformedReason | null } {
  const read = requirementAmount(e, version);
  const v = e.maxTimeoutSeconds;
  if (v === undefined || v === null || (typeof v === "number" && Number.isSafeInteger(v)))
    return { amount: read.amount, maxTimeoutSeconds: v ?? null, malformed: read.malformed };
  return { amount: read.amount, maxTimeoutSeconds: null, maxTimeoutText: canonicalJson(v), malformed: read.malformed ?? "max_timeout_not_an_integer" };
}

function termsOf(e: Record<string, unknown>, version: number, resourceUrl: string | null): QuoteTerms | null {
  if (typeof e.scheme !== "string" || typeof e.network !== "string") return null;
  const read = readRequirement(e, version);
  // v1 names the resource in each entry; v2 once, beside `accepts`.
  const resource = version === 1 ? (text(e.resource) ?? resourceUrl) : (resourceUrl ?? text(e.resource));
  return {
    x402Version: version,
    scheme: e.scheme,
    network: e.network,
    asset: text(e.asset),
    payTo: text(e.payTo),
    amount: read.amount,
    resourceUrl: resource,
    maxTimeoutSeconds: read.maxTimeoutSeconds,
    ...(read.maxTimeoutText === undefined ? {} : { maxTimeoutText: read.maxTimeoutText }),
    extra: e.extra === undefined || e.extra === null ? null : canonicalJson(e.extra),
    malformed: read.malformed,
  };
}

/**
 * A v1 or v2 challenge object (a 402 body, or the decoded `PAYMENT-REQUIRED` header). Entries
 * without a scheme and a network are skipped; an entry whose amount reads more than one way is
 * kept, marked malformed; none readable is null.
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

/**
 * The canonical text a requirement digest is taken over (docs/verdicts.md, with test vectors):
 * every field that changes what is signed or how, EVM addresses lower-cased, `extra` as
 * canonical JSON, and the malformed mark, so entries that sign different values never share it.
 */
export function canonicalTerms(t: QuoteTerms): string {
  const address = (a: string | null) => (a === null ? null : canonicalAddress(a));
  const { x402Version, scheme, network, amount, resourceUrl, extra, malformed } = t;
  // A timeout that is not an integer takes its slot as JSON text: "60" and 60 sign different windows.
  const timeout = t.maxTimeoutSeconds ?? t.maxTimeoutText ?? null;
  return JSON.stringify(["r2", x402Version, scheme, network, address(t.asset), address(t.payTo), amount, resourceUrl, timeout, extra, malformed]);
}

/** sha256 of the canonical terms, base64url without padding: what a signed verdict is bound to. */
export async function requirementDigest(t: QuoteTerms): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonicalTerms(t))));
  return btoa(String.fromCharCode(...hash))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}
