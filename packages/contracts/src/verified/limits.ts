/**
 * What a verification certificate asks of every endpoint it covers (docs/certificates.md). The
 * thresholds are stricter than the warnings': a certificate is a claim a provider shows to
 * agents, so it wants a week of healthy evidence, not only the absence of a critical warning.
 */
export const CERTIFICATE = {
  validMs: 30 * 24 * 3_600_000,
  minProbes7d: 20,
  minUptime7dPct: 95,
  maxP99LatencyMs: 5000,
  minPriceUsdc: 0.0001,
  maxPriceUsdc: 5,
  challengeVersion: 2,
  nameMaxChars: 80,
  /** A pattern may cover at most this many listings; past it the provider narrows the pattern. */
  maxListings: 5000,
  /** Failing URLs reported per criterion; failing_count gives the full number. */
  maxFailingReported: 20,
  /** A signed proof of control is refused once its issuedAt is older than this (decision 0019). */
  proofMaxAgeMs: 10 * 60_000,
  /** ... or later than now by more than this: clocks differ a little, never by minutes. */
  proofMaxSkewMs: 60_000,
  /** Normalised names shorter than this are compared for equality only, never for containment. */
  nameMatchMinChars: 6,
} as const;

export const CRITERION_IDS = [
  "in_catalog",
  "probes_7d",
  "uptime_7d",
  "no_critical_warning",
  "clean_verdict",
  "p99_latency_7d",
  "price_range",
  "x402_v2_challenge",
] as const;
export type CriterionId = (typeof CRITERION_IDS)[number];
