import type { WarningCode } from "@x402-lookout/contracts/codes";

/**
 * Every number that defines a signal, in one place. docs/signals.md explains each; change one
 * only with a decision record in docs/decisions/.
 */
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

// The codes themselves are wire vocabulary (packages/contracts); the numbers that decide them are here.
export { ALL_CODES, BLACKLIST_REASONS, FORENSICS_CODES, isBlacklistReason, PREFLIGHT_CODES } from "@x402-lookout/contracts/codes";
export type { BlacklistReason, ForensicsCode, PreflightCode, WarningCode } from "@x402-lookout/contracts/codes";
export const THRESHOLDS = {
  /** dead: this many consecutive failed probes, none healthy since (decision 0014). */
  deadMinProbes: 3,
  /** dead, for an uncatalogued URL: its live probe and the one retry it allows both failed. */
  deadMinLiveAttempts: 2,
  /** zombie: every distinct endpoint of the service had at least this many probes in the window, none healthy. */
  zombieMinProbesPerEndpoint: 3,
  zombieWindowMs: HOUR,
  decoyPriceUsdc: 1000,
  suspiciousPriceUsdc: 10,
  slowAvgLatencyMs: 2000,
  newProviderAgeMs: DAY,
  /** never_paid_zombie and ghost_listing: listed at least this long with zero calls. */
  neverPaidListedMs: 30 * DAY,
  proxyMarkupRatio: 3,
  dead7dMinProbes: 20,
  /** dead_7d: catalogued (first_seen_at) at least this long, so its week of evidence is a week (decision 0037). */
  dead7dMinListedMs: 7 * DAY,
  mostlyDeadUptimePct: 50,
  slowP99Ms: 5000,
  priceOutlierRatio: 10,
  highConcentrationPct: 5,
  /** no_history: in the catalog but no probe within this window. */
  noHistoryWindowMs: HOUR,
  /** pay_to_changed: distinct payees seen within this window (decision 0020). */
  payToWindowMs: 7 * DAY,
  /** price_switch: the newest price is at least this many times the lowest seen in the window before it. */
  priceSwitchRatio: 2,
  priceSwitchWindowMs: DAY,
  /**
   * needs_input: at least this share of the last hour's answered probes (healthy, error,
   * unchallenged, needs_input) were a 400 or 422 without a challenge, and none was healthy (decision 0046).
   */
  needsInputMinShare: 0.5,
  /** flapping (decision 0049): with at least this many judged probes in the last hour, ... */
  flapMinProbes1h: 4,
  /** ... an uptime_1h under this floor, or more errors in the last 30 minutes than this ceiling. */
  flapMinUptime1hPct: 80,
  flapMaxErrors30m: 2,
  /** paid_no_delivery and invalid_output: the latest settled paid check counts for this long (decision 0051). */
  deliveryEvidenceMs: 7 * DAY,
  /** paid_no_delivery from payers' reports: at least this many distinct payers' newest reports in 7 days say so (decision 0052). */
  payerFailureQuorum: 2,
} as const;

/** Warnings that make ok=false. */
export const CRITICAL: ReadonlySet<WarningCode> = new Set<WarningCode>([
  "dead",
  "zombie",
  "decoy_price_extreme",
  "never_paid_zombie",
  "dead_7d",
  "mostly_dead",
  // Quote integrity (decision 0020): money would go to another payee, asset or chain than listed, or the quote is cloaked.
  "pay_to_mismatch",
  "asset_not_usdc",
  "network_mismatch",
  "cloaking",
  // The amount reads more than one way: what a client signs may not be what was checked.
  "malformed_quote",
  // Wallet-drain risks are critical too, so `skip` never comes with ok=true (decision 0035).
  "suspicious_high_price",
  "price_switch",
  // Money was taken and nothing delivered (decision 0051).
  "paid_no_delivery",
]);

/** Codes about the catalog, not the endpoint: reported, but they alone never turn pay into investigate. */
// source_disagrees: one catalog's claim that the endpoint's own challenge contradicts (decision 0032).
export const INFORMATIONAL: ReadonlySet<WarningCode> = new Set<WarningCode>(["high_concentration", "source_disagrees"]);

/** Wallet-drain risks: recommended_action skip. Each is also CRITICAL: skip comes only with ok=false (decision 0035). */
export const WALLET_DRAIN: ReadonlySet<WarningCode> = new Set<WarningCode>([
  "decoy_price_extreme",
  "suspicious_high_price",
  "never_paid_zombie",
  "pay_to_mismatch",
  "asset_not_usdc",
  "price_switch",
  "cloaking",
  "malformed_quote",
]);

/** risk_score is the largest weight among the warnings that fired (critical = 1). */
export const WEIGHTS: Readonly<Record<WarningCode, number>> = {
  dead: 1,
  zombie: 1,
  decoy_price_extreme: 1,
  never_paid_zombie: 1,
  dead_7d: 1,
  mostly_dead: 1,
  pay_to_mismatch: 1,
  asset_not_usdc: 1,
  network_mismatch: 1,
  cloaking: 1,
  malformed_quote: 1,
  price_switch: 1,
  pay_to_changed: 0.7,
  suspicious_high_price: 1,
  price_mismatch: 0.5,
  failing: 0.6,
  // Not dead, but the hour says the next call may well fail: what failing weighs (decision 0049).
  flapping: 0.6,
  spa_fallback: 0.6,
  proxy_markup: 0.5,
  wildcard_402: 0.5,
  price_outlier_high: 0.5,
  unknown_endpoint: 0.4,
  no_history: 0.35,
  slow_p99: 0.3,
  slow: 0.3,
  // A paid listing that asks no payment: misconfigured or no longer the listed offer (decision 0037).
  unchallenged: 0.5,
  // The endpoint answers but refuses the input we know to send, so its offer is unseen: what unknown_endpoint weighs (decision 0046).
  needs_input: 0.4,
  paid_no_delivery: 1,
  // Delivered, but not what the listing declares: a client parsing it may fail (decision 0051).
  invalid_output: 0.5,
  // Its settlements are the provider's own, or one wallet's: the usage others see is not real (decision 0052).
  self_dealing: 0.3,
  new_provider: 0.2,
  high_concentration: 0.1,
  source_disagrees: 0.1,
};

/** confidence: 0 without evidence, 0.2 for one probe, 1 from this many probes in the last hour. */
export const CONFIDENCE_FULL_PROBES = 6;
export const CONFIDENCE_SINGLE_PROBE = 0.2;
/** Below this, an ok=false verdict is a hint only: recommended_action investigate. */
export const CONFIDENCE_HINT_BELOW = 0.4;

/**
 * decoy_probability (forensics) is a noisy-OR of four pieces of evidence, each scored 0..1 and
 * weighted by how strongly it alone indicates a decoy; see docs/signals.md.
 */
export const DECOY_BLEND = { price: 0.95, neverPaid: 0.5, hostTrap: 0.4, errors: 0.3 } as const;

/** A batch element is `established` with this much history. */
export const ESTABLISHED = { minProbes7d: 20, minServiceAgeMs: 7 * DAY } as const;

/** Free trial and unknown-URL live probes (docs/signals.md "Free trial and live probes"). */
export const TRIAL = { perIpPerDay: 10, perHostPerDay: 50, cacheSeconds: 300 } as const;
/**
 * budgetMs covers every request of one live probe (method fallbacks and the retry); while the
 * retry is unspent each request leaves retryReserveMs of it, and none starts with less than
 * minAttemptMs left.
 */
export const LIVE_PROBE = { budgetMs: 3000, retryReserveMs: 1000, minAttemptMs: 250, cacheSeconds: 300, perHostPerMinute: 6 } as const;
