/**
 * The codes an answer can carry: preflight and forensics codes (`reason_codes` all of them,
 * `warnings` the spec's only), blacklist reasons and alternatives' match reasons.
 * docs/signals.md explains each; the services decide them.
 */

/**
 * The spec's closed enumeration of preflight warnings (/spec 2.1), which PREFLIGHT_CODES starts with:
 * `warnings` shows only these (and, in forensics, FORENSICS_CODES); every other code, a new one
 * included, is an addition shown in `reason_codes` only (decision 0045).
 */
export const SPEC_PREFLIGHT_CODES = [
  "unknown_endpoint",
  "no_history",
  "dead",
  "zombie",
  "decoy_price_extreme",
  "suspicious_high_price",
  "slow",
  "new_provider",
  "never_paid_zombie",
  "proxy_markup",
  "wildcard_402",
  "spa_fallback",
] as const;
export const PREFLIGHT_CODES = [
  ...SPEC_PREFLIGHT_CODES,
  // Additions beside the spec's codes (they keep its meanings): see docs/signals.md.
  "failing",
  // Quote integrity (decision 0020): the terms an endpoint asks against its listing, history and profiles.
  "pay_to_mismatch",
  "pay_to_changed",
  "asset_not_usdc",
  "network_mismatch",
  "price_mismatch",
  "price_switch",
  "cloaking",
  // One amount reader (docs/verdicts.md): an entry whose amount reads more than one way.
  "malformed_quote",
  // A catalog source names other terms than the endpoint's own challenge, which another source agrees with (decision 0032).
  "source_disagrees",
  // A paid listing answered 2xx without an x402 challenge: it charges nothing now, or it is misconfigured (decision 0037).
  "unchallenged",
  // A 400 or 422 without a challenge to the input the listing declares: it validates input before it quotes (decision 0046).
  "needs_input",
  // The last hour was not mostly healthy (a floor on its uptime, a ceiling on errors in 30 min): no pay for a flapper (decision 0049).
  "flapping",
  // The latest paid check settled and then delivered nothing: an error, an empty, placeholder or canned body, a refusal (decision 0051).
  "paid_no_delivery",
  // The latest paid check delivered a body outside the output schema the listing declares (decision 0051).
  "invalid_output",
  // The chain shows the payTo paid only by itself, or by one wallet again and again: settlements that are not use (decision 0052).
  "self_dealing",
] as const;
export const FORENSICS_CODES = ["dead_7d", "mostly_dead", "slow_p99", "price_outlier_high", "high_concentration"] as const;
export const BLACKLIST_REASONS = ["decoy_price_extreme", "zombie", "dead_7d", "mostly_dead"] as const;

export type PreflightCode = (typeof PREFLIGHT_CODES)[number];
export type ForensicsCode = (typeof FORENSICS_CODES)[number];
export type WarningCode = PreflightCode | ForensicsCode;
export type BlacklistReason = (typeof BLACKLIST_REASONS)[number];
export const ALL_CODES: readonly WarningCode[] = [...PREFLIGHT_CODES, ...FORENSICS_CODES];
export type SpecPreflightCode = (typeof SPEC_PREFLIGHT_CODES)[number];
/** A code `warnings` may carry: the spec's preflight list, and in forensics its five more. */
export type SpecWarningCode = SpecPreflightCode | ForensicsCode;
export const SPEC_WARNING_CODES: readonly SpecWarningCode[] = [...SPEC_PREFLIGHT_CODES, ...FORENSICS_CODES];
/** Whether a code is one the spec enumerates for this view (forensics: its five too); any other is an addition. */
export const isSpecWarning = (code: string, view: "preflight" | "forensics" = "forensics"): code is SpecWarningCode =>
  ((view === "forensics" ? SPEC_WARNING_CODES : SPEC_PREFLIGHT_CODES) as readonly string[]).includes(code);
/** The additions, derived (every code the spec does not enumerate), so a new code is one automatically. */
export const EXTRA_CODES: readonly WarningCode[] = ALL_CODES.filter((c) => !isSpecWarning(c));
/** Whether a code is one of the blacklist's reasons: the only warnings the decoy blacklist lists. */
export const isBlacklistReason = (code: string): code is BlacklistReason => (BLACKLIST_REASONS as readonly string[]).includes(code);

/** Why an alternative was picked, best tier first. */
export const MATCH_REASONS = ["same_service", "same_provider", "same_domain", "same_category", "similar_price"] as const;
export type MatchReason = (typeof MATCH_REASONS)[number];
