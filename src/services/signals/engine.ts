import {
  ALL_CODES,
  CONFIDENCE_FULL_PROBES,
  CONFIDENCE_HINT_BELOW,
  CONFIDENCE_SINGLE_PROBE,
  CRITICAL,
  FORENSICS_CODES,
  INFORMATIONAL,
  isBlacklistReason,
  THRESHOLDS as T,
  WALLET_DRAIN,
  WEIGHTS,
  type WarningCode,
} from "./constants.js";
import { isSpecWarning, type SpecWarningCode } from "@x402-lookout/contracts/codes";
import { quoteRules } from "./quote-rules.js";
import type { Rule, SignalInput } from "./signal-types.js";

export type { Rule, SignalInput } from "./signal-types.js";

export type RecommendedAction = "pay" | "skip" | "use_alternatives" | "investigate";

export interface Verdict {
  ok: boolean;
  /** The spec's codes among reason_codes (/spec 2.1): what a client parsing its enumeration accepts. */
  warnings: SpecWarningCode[];
  /** Every code of the view that fired, additions included: what ok, risk and action come from. */
  reason_codes: WarningCode[];
  risk_score: number;
  confidence: number;
  recommended_action: RecommendedAction;
}

const fresh = (s: SignalInput, now: number) => s.lastProbeAt !== null && now - s.lastProbeAt.getTime() <= T.noHistoryWindowMs;
const uptimePct = (healthy: number, probes: number) => (probes === 0 ? null : (healthy / probes) * 100);
// One failure among a new listing's first probes is `failing`'s to report, not a flapper: two at least.
const flappingHour = (s: SignalInput) =>
  s.probes1h >= T.flapMinProbes1h &&
  ((s.probes1h - (s.healthy1h ?? 0) >= 2 && (uptimePct(s.healthy1h ?? 0, s.probes1h) ?? 100) < T.flapMinUptime1hPct) ||
    s.probes30m - s.healthy30m > T.flapMaxErrors30m);

// The newest settled paid check speaks for a week; a later one that delivered clears it (decision 0051).
const settledRecently = (s: SignalInput, now: number, outcomes: readonly string[]) =>
  !!s.delivery && outcomes.includes(s.delivery.outcome) && now - s.delivery.at.getTime() <= T.deliveryEvidenceMs;

// Payers' reports speak when enough distinct paying wallets agree and outnumber those delivered (decision 0052).
const payersSayUndelivered = (s: SignalInput) => !!s.payerVotes && s.payerVotes.failed >= T.payerFailureQuorum && s.payerVotes.failed > s.payerVotes.delivered;

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
  new_provider: (s, now) => !s.providerCalled && s.serviceSince !== null && now - s.serviceSince.getTime() < T.newProviderAgeMs,
  // Where the chain is read, it must agree that nobody paid in 30 days (decision 0052).
  never_paid_zombie: (s, now) =>
    s.listedSince !== null && now - s.listedSince.getTime() >= T.neverPaidListedMs && s.l30dCalls === 0 && s.lastCalledAt === null && !s.chain?.used30d,
  proxy_markup: (s) =>
    s.priceUsdc !== null && s.markupReferenceUsdc !== null && s.markupReferenceUsdc > 0 && s.priceUsdc >= T.proxyMarkupRatio * s.markupReferenceUsdc,
  wildcard_402: (s) => s.wildcard402,
  spa_fallback: (s) => s.spaFallback,
  // Failure evidence not yet confirmed as dead is never clean: at best investigate.
  failing: (s, now) => s.failStreak > 0 && fresh(s, now) && !RULES.dead(s, now),
  // Pay needs a mostly healthy hour: a flapper that just came back is not clean (decision 0049); dead says more.
  flapping: (s, now) => flappingHour(s) && fresh(s, now) && !RULES.dead(s, now),
  // A week of evidence needs a week in the catalog: a listing catalogued minutes ago is not dead for 7 days.
  dead_7d: (s, now) => s.listedSince !== null && now - s.listedSince.getTime() >= T.dead7dMinListedMs && s.probes7d >= T.dead7dMinProbes && s.healthy7d === 0,
  mostly_dead: (s) => s.probes7d >= T.dead7dMinProbes && s.healthy7d > 0 && (uptimePct(s.healthy7d, s.probes7d) ?? 100) < T.mostlyDeadUptimePct,
  slow_p99: (s) => s.p99Latency7dMs !== null && s.p99Latency7dMs >= T.slowP99Ms,
  price_outlier_high: (s) => s.priceRatioToMedian !== null && s.priceRatioToMedian >= T.priceOutlierRatio,
  high_concentration: (s) => s.concentrationPct !== null && s.concentrationPct >= T.highConcentrationPct,
  // A paid listing answered 2xx without a challenge in the last hour (decision 0037).
  unchallenged: (s) => (s.unchallenged1h ?? 0) > 0,
  // The hour's answers are mostly a 400/422 refusing our input and none quoted: its offer is unseen (decision 0046).
  needs_input: (s) => {
    const n = s.needsInput1h ?? 0;
    return n > 0 && (s.healthy1h ?? 0) === 0 && n >= T.needsInputMinShare * (s.probes1h + (s.unchallenged1h ?? 0) + n);
  },
  paid_no_delivery: (s, now) => settledRecently(s, now, ["undelivered", "refused_after_payment"]) || payersSayUndelivered(s),
  invalid_output: (s, now) => settledRecently(s, now, ["invalid_output"]),
  self_dealing: (s) => !!s.chain?.selfDealing,
  ...quoteRules,
};

const FORENSICS_ONLY = new Set<string>(FORENSICS_CODES);

export function confidenceOf(probes: number): number {
  if (probes <= 0) return 0;
  const c = CONFIDENCE_SINGLE_PROBE + ((1 - CONFIDENCE_SINGLE_PROBE) * (probes - 1)) / (CONFIDENCE_FULL_PROBES - 1);
  return Math.round(Math.min(1, c) * 100) / 100;
}

export type Mode = "preflight" | "forensics";

/**
 * The probes behind a verdict: the last hour's answers (unchallenged and needs_input ones too:
 * decisions 0037, 0046); a live probe of an unknown URL is one.
 */
export const confidenceFor = (input: SignalInput) =>
  confidenceOf(input.known ? input.probes1h + (input.unchallenged1h ?? 0) + (input.needsInput1h ?? 0) : Math.max(input.probes1h, input.lastProbeAt ? 1 : 0));

/**
 * The verdict for one endpoint: pure, so the same input and clock give the same answer. Its one
 * caller is the evidence pipeline (judge), which stores it; products read that (verdictFrom).
 */
export function evaluate(input: SignalInput, now: Date, mode: Mode = "preflight"): Verdict {
  const t = now.getTime();
  return verdictFrom(
    ALL_CODES.filter((code) => RULES[code](input, t)),
    input.known,
    confidenceFor(input),
    mode,
  );
}

/**
 * A product's verdict from the codes that fired (a stored verdict's codes): the mode's codes in
 * reason_codes, and ok, risk and action from them alone, so every product reading one stored
 * verdict agrees. A code this version does not know is kept and counts as a warning about the
 * endpoint. `warnings` shows only the spec's codes among them (decision 0045): additions, new
 * ones included, speak in reason_codes only.
 */
export function verdictFrom(fired: readonly string[], known: boolean, confidence: number, mode: Mode = "preflight"): Verdict {
  const shown = (c: string) => mode === "forensics" || !FORENSICS_ONLY.has(c);
  const reason_codes = [...ALL_CODES.filter((c) => fired.includes(c)), ...fired.filter((c) => !ALL_CODES.includes(c as WarningCode))].filter(
    shown,
  ) as WarningCode[];
  const warnings = reason_codes.filter((c) => isSpecWarning(c, mode));
  const ok = !reason_codes.some((w) => CRITICAL.has(w));
  const risk_score = reason_codes.reduce((max, w) => Math.max(max, WEIGHTS[w] ?? 1), 0);
  return { ok, warnings, reason_codes, risk_score, confidence, recommended_action: actionFor(reason_codes, ok, confidence, known) };
}

function actionFor(warnings: readonly WarningCode[], ok: boolean, confidence: number, known: boolean): RecommendedAction {
  if (warnings.some((w) => WALLET_DRAIN.has(w))) return "skip";
  if (!ok && known && confidence >= CONFIDENCE_HINT_BELOW) return "use_alternatives";
  if (!ok || warnings.some((w) => !INFORMATIONAL.has(w)) || !known) return "investigate";
  return "pay";
}

/** The blacklist reasons among a verdict's warnings (BLACKLIST_REASONS: /spec#catalog-decoys). */
export const blacklistReasons = (warnings: readonly WarningCode[]) => warnings.filter(isBlacklistReason);
