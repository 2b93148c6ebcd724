import { sql } from "kysely";
import { DELIST_REASONS, type DelistReason, type DelistScope, scopeReasons, WARNING_REASONS } from "./constants.js";

const fromWarnings: readonly string[] = WARNING_REASONS;

/**
 * Flagged: a blacklist reason or ghost_listing (the verdict engine's delist_reasons), or the
 * critical `dead`, `pay_to_mismatch` or `paid_no_delivery` warning. Reads the partial indexes on delist_reasons and critical.
 */
export const FLAGGED = sql<boolean>`(s.delist_reasons <> '{}' or (s.critical and s.warnings && ${sql.val([...WARNING_REASONS])}::text[]))`;

/** A listing's flag reasons from its snapshot, in entry order. */
export function flagReasons(delistReasons: readonly string[], warnings: readonly string[]): DelistReason[] {
  return DELIST_REASONS.filter((r) => delistReasons.includes(r) || (fromWarnings.includes(r) && warnings.includes(r)));
}

/** Recorded reasons, deduplicated and in entry order (unknown ones kept, last). */
export function orderReasons(reasons: readonly string[]): string[] {
  const known = DELIST_REASONS.filter((r) => reasons.includes(r));
  const other = [...new Set(reasons.filter((r) => !(DELIST_REASONS as readonly string[]).includes(r)))].sort();
  return [...known, ...other];
}

export const inScope = (reasons: readonly string[], scope: DelistScope) => {
  const wanted = scopeReasons(scope) as readonly string[];
  return reasons.some((r) => wanted.includes(r));
};
