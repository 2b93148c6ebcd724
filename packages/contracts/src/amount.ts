/**
 * The one reader of atomic amounts. An x402 `exact` EVM client signs `BigInt(amount)` (v2) or
 * `BigInt(maxAmountRequired)` (v1) as a uint256, and BigInt also reads hex, padded, signed and
 * space-wrapped text: only the canonical decimal form has one reading, so only it is a price.
 */
export const UINT256_MAX = 2n ** 256n - 1n;
const CANONICAL = /^(0|[1-9][0-9]*)$/;

/**
 * Why a value is not a canonical amount (docs/verdicts.md lists each). The problem says whether a
 * client can sign it at all: `missing`, `unsignable` and `beyond_uint256` cannot be signed,
 * `not_canonical` and `not_a_string` sign what BigInt makes of them (`signed`).
 */
export type AmountProblem = "missing" | "unsignable" | "beyond_uint256" | "not_canonical" | "not_a_string";

export type AmountReading =
  | { ok: true; value: bigint; text: string }
  | { ok: false; problem: "missing" | "unsignable" | "beyond_uint256"; signed: null }
  | { ok: false; problem: "not_canonical" | "not_a_string"; signed: bigint };

/** What BigInt would make of a value, as the x402 client computes it (true is 1, ["5"] is 5, "" is 0); null where it throws. */
function signedReading(value: unknown): bigint | null {
  try {
    const n = BigInt(value as string);
    return n >= 0n && n <= UINT256_MAX ? n : null;
  } catch {
    return null;
  }
}

/** Reads an atomic amount: ok only for a canonical decimal integer string within uint256. */
export function readAmount(value: unknown): AmountReading {
  if (value === undefined || value === null) return { ok: false, problem: "missing", signed: null };
  if (typeof value === "string" && CANONICAL.test(value)) {
    const n = BigInt(value);
    return n <= UINT256_MAX ? { ok: true, value: n, text: value } : { ok: false, problem: "beyond_uint256", signed: null };
  }
  // Two malformed amounts with one mark and one signed text sign the same: the digest relies on it.
  const signed = signedReading(value);
  if (signed === null) return { ok: false, problem: "unsignable", signed: null };
  return { ok: false, problem: typeof value === "string" ? "not_canonical" : "not_a_string", signed };
}

/** The canonical amount text, or null for anything else. */
export function canonicalAmount(value: unknown): string | null {
  const r = readAmount(value);
  return r.ok ? r.text : null;
}
