import { toMicros } from "../../lib/money.js";
import type { CatalogIndex, Predicate } from "./catalog-index.js";
import type { ExplorerRow, ListQuery } from "./types.js";

/** Which listings a provider or service page covers. */
export type Scope = { providerId: string } | { serviceId: string } | null;

/**
 * The query's search and filters as one predicate over the index. The search is a plain
 * substring of the lower-cased text: no pattern characters, so `%` or `_` match only themselves.
 * Category and network compare case-insensitively, the price range in micro-USDC, inclusive.
 * null: everything matches.
 */
export function predicateOf(index: CatalogIndex, q: Omit<ListQuery, "sort" | "dir" | "page">, scope: Scope = null): Predicate | null {
  const tests: Predicate[] = [];
  if (scope && "providerId" in scope) tests.push((r) => r.providerId === scope.providerId);
  if (scope && "serviceId" in scope) tests.push((r) => r.serviceId === scope.serviceId);
  const needle = q.q?.trim().toLowerCase().replaceAll("\0", "");
  if (needle) {
    const marks = index.search(needle);
    tests.push((_, i) => marks[i] === 1);
  }
  if (q.verdict) tests.push(q.verdict === "unjudged" ? (r) => r.action === null : (r) => r.action === q.verdict);
  if (q.warning) tests.push((r) => r.warnings.includes(q.warning!));
  if (q.category) tests.push(among(index.categories, q.category, (r) => r.category));
  if (q.network) tests.push(among(index.networks, q.network, (r) => r.network));
  const min = q.minPrice === undefined ? null : toMicros(q.minPrice);
  const max = q.maxPrice === undefined ? null : toMicros(q.maxPrice);
  // A row without a price is outside any range (NaN compares false).
  const [low, high] = [Number(min ?? 0), max === null ? Infinity : Number(max)];
  if (min !== null || max !== null) tests.push((_, i) => index.micros[i]! >= low && index.micros[i]! <= high);
  if (tests.length === 0) return null;
  if (tests.length === 1) return tests[0]!;
  return (row, i) => {
    for (const t of tests) if (!t(row, i)) return false;
    return true;
  };
}

/** Rows whose value is one of `facets` equal to `wanted` but for case: the values are shared strings, so a set lookup. */
const among = (facets: readonly string[], wanted: string, pick: (r: ExplorerRow) => string | null): Predicate => {
  const w = wanted.trim().toLowerCase();
  const hits = new Set(facets.filter((f) => f.toLowerCase() === w));
  return (r) => hits.has(pick(r)!);
};
