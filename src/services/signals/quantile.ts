import { roundUsdc } from "../../lib/money.js";

/**
 * The q-quantile of ascending USDC prices `sorted`, interpolated linearly between ranks and
 * rounded to USDC's 6 places (no float artefacts such as 0.15000000000000002); null when empty.
 * Its own module so group-context and markup both use it without importing each other.
 */
export function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return roundUsdc(sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo));
}
