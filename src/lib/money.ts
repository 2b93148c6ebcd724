import { atomicToUsdc } from "@x402-lookout/contracts/usdc";

/**
 * Money in answers without floating-point artefacts: amounts are worked in integer micro-USDC
 * (USDC's 6 decimals) and shown as exact decimal strings of at most 6 places.
 */

/** A non-negative decimal string of any length as micro-USDC, half up at the 6th place; null when it is not one. */
export function toMicros(decimal: string): bigint | null {
  const m = /^\s*(\d+)(?:\.(\d*))?\s*$/.exec(decimal);
  if (!m) return null;
  const frac = m[2] ?? "";
  const micros = BigInt(m[1]!) * 1_000_000n + BigInt(frac.slice(0, 6).padEnd(6, "0"));
  return (frac[6] ?? "0") >= "5" ? micros + 1n : micros;
}

/** A price as an exact decimal of at most 6 places ("0.0020" -> "0.002"); null when unknown or not a decimal. */
export function usdcDecimal(price: string | null | undefined): string | null {
  const micros = price === null || price === undefined ? null : toMicros(price);
  return micros === null ? null : atomicToUsdc(micros);
}

/**
 * A USDC amount the spec types as a number, rounded to 6 places: the double nearest that
 * decimal, which JSON prints as the decimal itself (2009.8000000000002 -> 2009.8).
 */
export function roundUsdc(n: number | null | undefined): number | null {
  if (n === null || n === undefined || !Number.isFinite(n)) return null;
  const micros = Math.round(Math.abs(n) * 1e6);
  return Math.sign(n) * Number(atomicToUsdc(BigInt(micros)));
}
