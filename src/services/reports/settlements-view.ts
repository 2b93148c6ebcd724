import type { Settlements } from "@x402-lookout/contracts/preflight/settlements";
import { settlementsOf } from "../chain-index/index.js";

/** Days in forensics' daily series: the summaries' longest window. */
const SERIES_DAYS = 30;

/** Forensics' evidence.settlements: the listing's stored summary (decision 0052) with 30 UTC days, oldest first; null when not indexed. */
export function settlementsView(row: { settlements?: unknown } | null, now: Date): Settlements | null {
  const s = row ? settlementsOf(row) : null;
  if (!s) return null;
  const { ghost_after: _ghostAfter, indexed_from_block: _from, daily, ...shown } = s;
  const byDay = new Map(daily.map((d) => [d.day, d]));
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const days = Array.from({ length: SERIES_DAYS }, (_, i) => new Date(today - (SERIES_DAYS - 1 - i) * 86_400_000).toISOString().slice(0, 10));
  return { ...shown, daily: days.map((day) => byDay.get(day) ?? { day, calls: 0, volume_usdc: "0" }) };
}

/** Preflight's and each batch element's metadata fields: settled calls and distinct payers over 30 days. */
export function settledMetadata(row: { settlements?: unknown } | null) {
  const s = row ? settlementsOf(row) : null;
  return { settled_calls_30d: s?.calls_30d ?? null, distinct_payers_30d: s?.distinct_payers_30d ?? null };
}
