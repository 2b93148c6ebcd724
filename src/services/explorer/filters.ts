import { toMicros } from "../../lib/money.js";
import type { CatalogIndex, Predicate } from "./catalog-index.js";
import type { ExplorerRow, ListQuery } from "./types.js";

/** Which listings a provider or service page covers. */
export type Scope = { providerId: string } | { serviceId: string } | null;

/**
 * The query's search and filters as one predicate over the index. The search is a plain
 * substring of the lower-cased text: no pattern characters, so `%` or `_` match only themselves.
 * Category and network compare case-insensitively, the price range in micro-USDC, inclusive.
 */
export function predicateOf(index: CatalogIndex, q: Omit<ListQuery, "sort" | "dir" | "page">, scope: Scope = null): Predicate {
  const tests: Predicate[] = [];
  if (scope && "providerId" in scope) tests.push((r) => r.providerId === scope.providerId);
  if (scope && "serviceId" in scope) tests.push((r) => r.serviceId === scope.serviceId);
  const needle = q.q?.trim().toLowerCase();
  if (needle) tests.push((_, i) => index.haystack[i]!.includes(needle));
  if (q.verdict) tests.push(q.verdict === "unjudged" ? (r) => r.action === null : (r) => r.action === q.verdict);
  if (q.warning) tests.push((r) => r.warnings.includes(q.warning!));
  if (q.category) tests.push(same((r) => r.category, q.category));
  if (q.network) tests.push(same((r) => r.network, q.network));
  const min = q.minPrice === undefined ? null : toMicros(q.minPrice);
  const max = q.maxPrice === undefined ? null : toMicros(q.maxPrice);
  // A row without a price is outside any range (NaN compares false).
  if (min !== null) tests.push((_, i) => index.micros[i]! >= Number(min));
  if (max !== null) tests.push((_, i) => index.micros[i]! <= Number(max));
  return (row, i) => tests.every((t) => t(row, i));
}

const same = (pick: (r: ExplorerRow) => string | null, wanted: string): Predicate => {
  const w = wanted.trim().toLowerCase();
  return (r) => pick(r)?.toLowerCase() === w;
};
