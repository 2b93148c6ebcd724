import type { DbHandle } from "../../db/client.js";
import type { Clock } from "../../lib/clock.js";
import { addDays, DELIST, GHOST_REASON, isAddedReason, scopeReasons, utcDay, type DelistScope } from "./constants.js";
import { inScope } from "./flag-reasons.js";
import { flaggedListings, type FlaggedListing } from "./flagged-listings.js";
import { recoveredListings, type RecoveredListing } from "./recovered-listings.js";

interface Ctx {
  db: DbHandle;
  clock: Clock;
}

const pct = (v: number | null) => (v === null ? null : Math.round(v));
const confidence = (f: FlaggedListing): "high" | "low" => (f.flaggedDaysConsecutive >= DELIST.highConfidenceDays ? "high" : "low");
/** Longest-flagged first, then by URL, so two calls without a change answer the same bytes. */
const byStreak = (a: FlaggedListing, b: FlaggedListing) => b.flaggedDaysConsecutive - a.flaggedDaysConsecutive;

const recoveredItem = (r: RecoveredListing) => ({
  url: r.url,
  method: r.method,
  was_reasons: r.wasReasons,
  flagged_until: r.flaggedUntil.toISOString(),
  uptime_48h_pct: Math.round(r.uptime48hPct),
});

/** POST /api/v1/delist-feed: every listing to delist now, and those that recovered this week. */
export async function delistSnapshot(ctx: Ctx, opts: { scope: DelistScope; limit: number }) {
  const now = ctx.clock.now();
  const flagged = (await flaggedListings(ctx.db.db, now)).filter((f) => inScope(f.reasons, opts.scope)).sort(byStreak);
  const recovered = (await recoveredListings(ctx.db.db, addDays(utcDay(now), -(DELIST.snapshotRecoveredDays - 1)), now)).filter((r) =>
    inScope(r.wasReasons, opts.scope),
  );
  const count = (reasons: readonly string[]) => Object.fromEntries(reasons.map((reason) => [reason, flagged.filter((f) => f.reasons.includes(reason)).length]));
  // by_reason keeps the spec's keys (blacklist reasons and ghost_listing); the reasons added to them count apart (decision 0050).
  const reasons = scopeReasons(opts.scope);
  const newSince = now.getTime() - DELIST.newlyFlaggedMs;
  return {
    generated_at: now.toISOString(),
    mode: "snapshot" as const,
    scope: opts.scope,
    counts: {
      should_delist: flagged.length,
      newly_flagged: flagged.filter((f) => f.firstFlaggedAt.getTime() >= newSince).length,
      recovered: recovered.length,
      ghost_listings: flagged.filter((f) => f.reasons.includes(GHOST_REASON)).length,
      by_reason: count(reasons.filter((r) => !isAddedReason(r))),
      by_added_reason: count(reasons.filter(isAddedReason)),
    },
    truncated: flagged.length > opts.limit || recovered.length > opts.limit,
    limit: opts.limit,
    should_delist: flagged.slice(0, opts.limit).map((f) => ({
      url: f.url,
      method: f.method,
      reasons: f.reasons,
      first_flagged_at: f.firstFlaggedAt.toISOString(),
      confidence: confidence(f),
      flagged_days_consecutive: f.flaggedDaysConsecutive,
      uptime_7d_pct: pct(f.uptime7dPct),
      cdp_listed: f.cdpListed,
      cdp_l30d_calls: f.l30dCalls,
      chain: f.chain,
    })),
    recovered: recovered.slice(0, opts.limit).map(recoveredItem),
  };
}

/** POST /api/v1/delist-feed-diff: listings newly flagged and recovered since `since` (at most 48 h back). */
export async function delistDiff(ctx: Ctx, opts: { since: Date; scope: DelistScope; limit: number }) {
  const now = ctx.clock.now();
  const since = opts.since.getTime();
  const flagged = (await flaggedListings(ctx.db.db, now)).filter((f) => inScope(f.reasons, opts.scope) && f.firstFlaggedAt.getTime() > since).sort(byStreak);
  const recovered = (await recoveredListings(ctx.db.db, utcDay(opts.since), now)).filter(
    (r) => inScope(r.wasReasons, opts.scope) && r.flaggedUntil.getTime() > since,
  );
  return {
    generated_at: now.toISOString(),
    mode: "diff" as const,
    scope: opts.scope,
    window: { since: opts.since.toISOString(), until: now.toISOString() },
    counts: {
      should_delist: flagged.length,
      newly_flagged: flagged.length,
      recovered: recovered.length,
      ghost_listings: flagged.filter((f) => f.reasons.includes(GHOST_REASON)).length,
    },
    truncated: flagged.length > opts.limit || recovered.length > opts.limit,
    limit: opts.limit,
    should_delist: flagged.slice(0, opts.limit).map((f) => ({
      url: f.url,
      method: f.method,
      reasons: f.reasons,
      first_flagged_at: f.firstFlaggedAt.toISOString(),
      confidence: confidence(f),
    })),
    recovered: recovered.slice(0, opts.limit).map(recoveredItem),
  };
}
