import { DELIST_LIMITS, type DelistScope } from "@x402-lookout/contracts/delist/limits";
import { BLACKLIST_REASONS, DAY, HOUR } from "../signals/constants.js";

/**
 * The delist feed's rules (signals.md "Delist", docs/delist.md). A listing is flagged while it
 * has a blacklist reason, is dead right now, pays someone else (decision 0038), took a paid check's
 * money and delivered nothing (decision 0051), or is a ghost listing.
 */
export const CRITICAL_DELIST_REASONS = ["dead", ...BLACKLIST_REASONS, "pay_to_mismatch", "paid_no_delivery"] as const;
/** Reasons read from the verdict's critical warnings (not its delist reasons): they hold now, not over days. */
export const WARNING_REASONS = ["dead", "pay_to_mismatch", "paid_no_delivery"] as const;
export const GHOST_REASON = "ghost_listing";
/** The reasons this service adds to the spec's (its blacklist reasons and ghost_listing): by_added_reason counts them. */
export const isAddedReason = (r: string) => (WARNING_REASONS as readonly string[]).includes(r);
/** Every reason, in the order entries list them. */
export const DELIST_REASONS = [...CRITICAL_DELIST_REASONS, GHOST_REASON] as const;
export type DelistReason = (typeof DELIST_REASONS)[number];

export { DELIST_SCOPES, type DelistScope } from "@x402-lookout/contracts/delist/limits";

export const DELIST = {
  /** What the feed's answers state (confidence, recovery, limit) is wire vocabulary. */
  ...DELIST_LIMITS,
  /** The snapshot lists listings recovered after a flag on any of the last 7 UTC days. */
  snapshotRecoveredDays: 7,
  /** newly_flagged: the current flag streak began within this window. */
  newlyFlaggedMs: DAY,
  diffDefaultWindowMs: DAY,
  diffMaxWindowMs: 48 * HOUR,
  /** A client clock slightly ahead of ours may send a `since` this far in the future. */
  clockSkewMs: 2 * 60_000,
  /** flag_history keeps a year (src/db/retention.ts), so a streak counts at most this many days. */
  streakLookbackDays: 366,
  /** The recorder runs this often; each run writes today's row once per flagged listing. */
  recordEveryMs: 10 * 60_000,
} as const;

/** The reasons of a scope, in entry order. */
export const scopeReasons = (scope: DelistScope): readonly DelistReason[] =>
  scope === "critical" ? CRITICAL_DELIST_REASONS : scope === "ghost" ? [GHOST_REASON] : DELIST_REASONS;

/** UTC calendar day of an instant, as flag_history keys it. */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);
export const addDays = (day: string, n: number) => utcDay(new Date(Date.parse(`${day}T00:00:00.000Z`) + n * DAY));
