/**
 * The one reader of atomic amounts. An x402 `exact` EVM client signs `BigInt(amount)` (v2) or
 * `BigInt(maxAmountRequired)` (v1) as a uint256, and BigInt also reads hex, padded, signed and
 * space-wrapped text: only the canonical decimal form has one reading, so only it is a price.
 */
export const UINT256_MAX = 2n ** 256n - 1n;
const CANONICAL = /^(0|[1-9][0-9]*)$/;

/** Why a value is not a canonical amount (docs/verdicts.md lists each). */
export type AmountProblem = "missing" | "not_a_string" | "not_canonical" | "beyond_uint256";

export type AmountReading = { ok: true; value: bigint; text: string } | { ok: false; problem: AmountProblem; signed: bigint | null };

/** What BigInt would make of a value, as the x402 client computes it; null where it throws. */
function signedReading(value: unknown): bigint | null {
  if (typeof value !== "string" && typeof value !== "number") return null;
  try {
    const n = BigInt(value);
    return n >= 0n && n <= UINT256_MAX ? n : null;
  } catch {
    return null;
  }
}

/** Reads an atomic amount: ok only for a canonical decimal integer string within uint256. */
export function readAmount(value: unknown): AmountReading {
  if (value === undefined || value === null || value === "") return { ok: false, problem: "missing", signed: null };
  if (typeof value !== "string") return { ok: false, problem: "not_a_string", signed: signedReading(value) };
  if (!CANONICAL.test(value)) return { ok: false, problem: "not_canonical", signed: signedReading(value) };
  const n = BigInt(value);
  return n <= UINT256_MAX ? { ok: true, value: n, text: value } : { ok: false, problem: "beyond_uint256", signed: null };
}

/** The canonical amount text, or null for anything else. */
export function canonicalAmount(value: unknown): string | null {
  const r = readAmount(value);
  return r.ok ? r.text : null;
}
