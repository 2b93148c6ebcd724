/** The delist feed's scopes and the limits its answers state (docs/delist.md). */
export const DELIST_SCOPES = ["critical", "ghost", "all"] as const;
export type DelistScope = (typeof DELIST_SCOPES)[number];

export const DELIST_LIMITS = {
  /** confidence is high from this many consecutive flagged UTC days. */
  highConfidenceDays: 3,
  /** A flagged listing is recovered once no reason holds and its 48 h uptime reaches this. */
  recoveredUptime48hPct: 95,
  limit: { min: 1, max: 10_000, default: 2_000 },
} as const;
