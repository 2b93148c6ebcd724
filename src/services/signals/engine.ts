import {
  ALL_CODES,
  CONFIDENCE_FULL_PROBES,
  CONFIDENCE_HINT_BELOW,
  CONFIDENCE_SINGLE_PROBE,
  CRITICAL,
  INFORMATIONAL,
  THRESHOLDS as T,
  WALLET_DRAIN,
  WEIGHTS,
  type WarningCode,
} from "./constants.js";

/** Everything a verdict is computed from: one listing's snapshot plus its group context. */
export interface SignalInput {
  /** In the catalog and active. False: a live probe of an unknown URL. */
  known: boolean;
  priceUsdc: number | null;
  probes30m: number;
  healthy30m: number;
  /** Consecutive failed probes up to the latest, none healthy since (0 when the latest was healthy). */
  failStreak: number;
  probes1h: number;
  avgLatency1hMs: number | null;
  lastProbeAt: Date | null;
  probes7d: number;
  healthy7d: number;
  p99Latency7dMs: number | null;
  /** Distinct endpoints of the listing's service; those that failed in the zombie window (enough probes, none healthy); those with a healthy probe there. */
  serviceEndpoints: number;
  serviceFailedEndpoints: number;
  serviceHealthyEndpoints: number;
  /** Earliest evidence of the service: first sighting here, or an older last call. */
  serviceSince: Date | null;
  listedSince: Date | null;
  l30dCalls: number | null;
  lastCalledAt: Date | null;
  wildcard402: boolean;
  spaFallback: boolean;
  /** Reference price for markup, when a peer or floor price exists. */
  markupReferenceUsdc: number | null;
  priceRatioToMedian: number | null;
  concentrationPct: number | null;
}

export type RecommendedAction = "pay" | "skip" | "use_alternatives" | "investigate";

export interface Verdict {
  ok: boolean;
  warnings: WarningCode[];
  reason_codes: WarningCode[];
  risk_score: number;
  confidence: number;
  recommended_action: RecommendedAction;
}

type Rule = (s: SignalInput, now: number) => boolean;

const fresh = (s: SignalInput, now: number) => s.lastProbeAt !== null && now - s.lastProbeAt.getTime() <= T.noHistoryWindowMs;
const uptimePct = (healthy: number, probes: number) => (probes === 0 ? null : (healthy / probes) * 100);

/** One predicate per code, in the order warnings are reported. */
const RULES: Readonly<Record<WarningCode, Rule>> = {
  unknown_endpoint: (s) => !s.known,
  no_history: (s, now) => s.known && (s.lastProbeAt === null || now - s.lastProbeAt.getTime() > T.noHistoryWindowMs),
  // A run of failures counts while it is fresh; once the prober has been silent an hour, no_history says so instead.
  dead: (s, now) => s.failStreak >= (s.known ? T.deadMinProbes : T.deadMinLiveAttempts) && fresh(s, now),
  zombie: (s) => s.known && s.serviceFailedEndpoints > 0 && s.serviceFailedEndpoints === s.serviceEndpoints,
  decoy_price_extreme: (s) => s.priceUsdc !== null && s.priceUsdc >= T.decoyPriceUsdc,
  suspicious_high_price: (s) => s.priceUsdc !== null && s.priceUsdc >= T.suspiciousPriceUsdc && s.priceUsdc < T.decoyPriceUsdc,
  slow: (s) => s.avgLatency1hMs !== null && s.avgLatency1hMs >= T.slowAvgLatencyMs,
  new_provider: (s, now) => s.serviceSince !== null && now - s.serviceSince.getTime() < T.newProviderAgeMs,
  never_paid_zombie: (s, now) => s.listedSince !== null && now - s.listedSince.getTime() >= T.neverPaidListedMs && s.l30dCalls === 0 && s.lastCalledAt === null,
  proxy_markup: (s) =>
    s.priceUsdc !== null && s.markupReferenceUsdc !== null && s.markupReferenceUsdc > 0 && s.priceUsdc >= T.proxyMarkupRatio * s.markupReferenceUsdc,
  wildcard_402: (s) => s.wildcard402,
  spa_fallback: (s) => s.spaFallback,
  // Failure evidence not yet confirmed as dead is never clean: at best investigate.
  failing: (s, now) => s.failStreak > 0 && fresh(s, now) && !RULES.dead(s, now),
  dead_7d: (s) => s.probes7d >= T.dead7dMinProbes && s.healthy7d === 0,
  mostly_dead: (s) => s.probes7d >= T.dead7dMinProbes && s.healthy7d > 0 && (uptimePct(s.healthy7d, s.probes7d) ?? 100) < T.mostlyDeadUptimePct,
  slow_p99: (s) => s.p99Latency7dMs !== null && s.p99Latency7dMs >= T.slowP99Ms,
  price_outlier_high: (s) => s.priceRatioToMedian !== null && s.priceRatioToMedian >= T.priceOutlierRatio,
  high_concentration: (s) => s.concentrationPct !== null && s.concentrationPct >= T.highConcentrationPct,
};

const FORENSICS_ONLY = new Set<WarningCode>(["dead_7d", "mostly_dead", "slow_p99", "price_outlier_high", "high_concentration"]);

export function confidenceOf(probes: number): number {
  if (probes <= 0) return 0;
  const c = CONFIDENCE_SINGLE_PROBE + ((1 - CONFIDENCE_SINGLE_PROBE) * (probes - 1)) / (CONFIDENCE_FULL_PROBES - 1);
  return Math.round(Math.min(1, c) * 100) / 100;
}

/** The verdict for one endpoint: pure, so the same input and clock give the same answer. */
export function evaluate(input: SignalInput, now: Date, mode: "preflight" | "forensics" = "preflight"): Verdict {
  const t = now.getTime();
  const warnings = ALL_CODES.filter((code) => (mode === "forensics" || !FORENSICS_ONLY.has(code)) && RULES[code](input, t));
  const critical = warnings.some((w) => CRITICAL.has(w));
  const ok = !critical;
  const risk_score = warnings.reduce((max, w) => Math.max(max, WEIGHTS[w]), 0);
  // A live probe of an unknown URL is one probe of evidence.
  const confidence = confidenceOf(input.known ? input.probes1h : Math.max(input.probes1h, input.lastProbeAt ? 1 : 0));
  return { ok, warnings, reason_codes: [...warnings], risk_score, confidence, recommended_action: actionFor(warnings, ok, confidence, input.known) };
}

/**
 * The action of a stored verdict (signal_snapshots.warnings) by the rule evaluate uses, so a
 * product that reads the snapshot (alternatives, certificates) and preflight cannot disagree.
 * A code this version does not know counts as a warning about the endpoint (never pay).
 */
export function actionOf(warnings: readonly string[], known: boolean, confidence: number): RecommendedAction {
  const codes = warnings as readonly WarningCode[];
  return actionFor(codes, !codes.some((w) => CRITICAL.has(w)), confidence, known);
}

function actionFor(warnings: readonly WarningCode[], ok: boolean, confidence: number, known: boolean): RecommendedAction {
  if (warnings.some((w) => WALLET_DRAIN.has(w))) return "skip";
  if (!ok && known && confidence >= CONFIDENCE_HINT_BELOW) return "use_alternatives";
  if (!ok || warnings.some((w) => !INFORMATIONAL.has(w)) || !known) return "investigate";
  return "pay";
}

/** The blacklist reasons among a verdict's warnings (spec 2.1: only four may appear). */
export const blacklistReasons = (warnings: readonly WarningCode[]) =>
  warnings.filter(
    (w): w is "decoy_price_extreme" | "zombie" | "dead_7d" | "mostly_dead" =>
      w === "decoy_price_extreme" || w === "zombie" || w === "dead_7d" || w === "mostly_dead",
  );
