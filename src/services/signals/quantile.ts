/**
 * The q-quantile of ascending `sorted`, interpolated linearly between ranks; null when empty.
 * Its own module so group-context and markup both use it without importing each other.
 */
export function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}
