import type { JsonObject } from "../../db/schema.js";
import { THRESHOLDS as T, type WarningCode } from "../signals/constants.js";
import type { SignalInput } from "../signals/engine.js";
import { QUOTE_EVIDENCE } from "./quote-evidence.js";

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const hoursSince = (d: Date | null, now: Date) => (d ? Math.round(((now.getTime() - d.getTime()) / 3_600_000) * 10) / 10 : null);
const pct = (healthy: number, probes: number) => (probes === 0 ? null : Math.round((healthy / probes) * 100));

// Each source named apart: the paid checker's newest settled check, and payers' votes (decision 0052).
const deliveryEvidence = (s: SignalInput): JsonObject => ({
  settled_outcome: s.delivery?.outcome ?? null,
  settled_at: iso(s.delivery?.at ?? null),
  window_days: T.deliveryEvidenceMs / 86_400_000,
  payers_failed_7d: s.payerVotes?.failed ?? 0,
  payers_delivered_7d: s.payerVotes?.delivered ?? 0,
  payer_quorum: T.payerFailureQuorum,
});

/**
 * The numbers each signal is decided on, next to the threshold they were held against, so an
 * alert says why it fired or cleared without a second call.
 */
const EVIDENCE: Readonly<Record<WarningCode, (s: SignalInput, now: Date) => JsonObject>> = {
  unknown_endpoint: (s) => ({ listed: s.known }),
  no_history: (s) => ({ last_probe_at: iso(s.lastProbeAt), window_minutes: T.noHistoryWindowMs / 60_000 }),
  dead: (s) => ({
    probes_30m: s.probes30m,
    healthy_30m: s.healthy30m,
    fail_streak: s.failStreak,
    min_failed_in_a_row: s.known ? T.deadMinProbes : T.deadMinLiveAttempts,
    probes_1h: s.probes1h,
  }),
  failing: (s) => ({ fail_streak: s.failStreak, dead_at: s.known ? T.deadMinProbes : T.deadMinLiveAttempts }),
  zombie: (s) => ({
    service_endpoints: s.serviceEndpoints,
    failed_endpoints: s.serviceFailedEndpoints,
    healthy_endpoints: s.serviceHealthyEndpoints,
    min_probes_per_endpoint: T.zombieMinProbesPerEndpoint,
    listed: s.known,
  }),
  decoy_price_extreme: (s) => ({ price_usdc: s.priceUsdc, threshold_usdc: T.decoyPriceUsdc }),
  suspicious_high_price: (s) => ({ price_usdc: s.priceUsdc, threshold_usdc: T.suspiciousPriceUsdc, decoy_threshold_usdc: T.decoyPriceUsdc }),
  slow: (s) => ({ avg_latency_1h_ms: s.avgLatency1hMs, threshold_ms: T.slowAvgLatencyMs, probes_1h: s.probes1h }),
  new_provider: (s, now) => ({
    service_since: iso(s.serviceSince),
    service_age_hours: hoursSince(s.serviceSince, now),
    provider_called: s.providerCalled,
    threshold_hours: T.newProviderAgeMs / 3_600_000,
  }),
  never_paid_zombie: (s, now) => ({
    listed_since: iso(s.listedSince),
    listed_days: s.listedSince ? Math.floor((now.getTime() - s.listedSince.getTime()) / 86_400_000) : null,
    l30d_calls: s.l30dCalls,
    last_called_at: iso(s.lastCalledAt),
    chain_used_30d: s.chain?.used30d ?? null,
    min_listed_days: T.neverPaidListedMs / 86_400_000,
  }),
  proxy_markup: (s) => ({ price_usdc: s.priceUsdc, reference_price_usdc: s.markupReferenceUsdc, min_ratio: T.proxyMarkupRatio }),
  wildcard_402: (s) => ({ wildcard_402_detected: s.wildcard402 }),
  spa_fallback: (s) => ({ spa_fallback_detected: s.spaFallback }),
  dead_7d: (s, now) => ({
    probes_7d: s.probes7d,
    healthy_7d: s.healthy7d,
    min_probes: T.dead7dMinProbes,
    listed_days: s.listedSince ? Math.floor((now.getTime() - s.listedSince.getTime()) / 86_400_000) : null,
    min_listed_days: T.dead7dMinListedMs / 86_400_000,
  }),
  mostly_dead: (s) => ({
    probes_7d: s.probes7d,
    healthy_7d: s.healthy7d,
    uptime_7d_pct: pct(s.healthy7d, s.probes7d),
    threshold_pct: T.mostlyDeadUptimePct,
    min_probes: T.dead7dMinProbes,
  }),
  slow_p99: (s) => ({ p99_latency_7d_ms: s.p99Latency7dMs, threshold_ms: T.slowP99Ms }),
  price_outlier_high: (s) => ({ price_usdc: s.priceUsdc, price_ratio_to_median: s.priceRatioToMedian, threshold_ratio: T.priceOutlierRatio }),
  high_concentration: (s) => ({ concentration_pct: s.concentrationPct, threshold_pct: T.highConcentrationPct }),
  unchallenged: (s) => ({ unchallenged_1h: s.unchallenged1h ?? 0, probes_1h: s.probes1h, price_usdc: s.priceUsdc }),
  flapping: (s) => ({
    probes_1h: s.probes1h,
    healthy_1h: s.healthy1h ?? 0,
    uptime_1h_pct: pct(s.healthy1h ?? 0, s.probes1h),
    errors_30m: s.probes30m - s.healthy30m,
    min_probes_1h: T.flapMinProbes1h,
    min_uptime_1h_pct: T.flapMinUptime1hPct,
    max_errors_30m: T.flapMaxErrors30m,
  }),
  needs_input: (s) => ({
    needs_input_1h: s.needsInput1h ?? 0,
    probes_1h: s.probes1h,
    healthy_1h: s.healthy1h ?? 0,
    min_share: T.needsInputMinShare,
  }),
  paid_no_delivery: (s) => deliveryEvidence(s),
  invalid_output: (s) => deliveryEvidence(s),
  self_dealing: (s) => ({ chain_indexed: s.chain != null, self_dealing: s.chain?.selfDealing ?? null, used_30d: s.chain?.used30d ?? null }),
  ...QUOTE_EVIDENCE,
};

export function evidenceFor(code: WarningCode, input: SignalInput, now: Date, lastProbeAt: Date | null): JsonObject {
  return { ...EVIDENCE[code](input, now), last_probe_at: iso(lastProbeAt) };
}

/** A watched URL that is not (yet) in the catalog: every signal is unknown until evidence exists. */
export const UNLISTED_EVIDENCE: JsonObject = { listed: false };
