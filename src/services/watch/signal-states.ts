import type { WatchSignalState } from "../../db/schema.js";
import { CONFIDENCE_HINT_BELOW, THRESHOLDS as T, type WarningCode } from "../signals/constants.js";
import { confidenceOf, type SignalInput } from "../signals/engine.js";
import type { ReportRow } from "../signals/listing-row.js";

type HostChecks = Pick<ReportRow, "wildcard_402_checked_at" | "spa_fallback_checked_at">;

/** Probes enough in the hour for a verdict that is more than a hint (recommended_action's bar), and still fresh. */
const probed = (s: SignalInput, now: number) =>
  s.lastProbeAt !== null && now - s.lastProbeAt.getTime() <= T.noHistoryWindowMs && confidenceOf(s.probes1h) >= CONFIDENCE_HINT_BELOW;
const priced = (s: SignalInput) => s.priceUsdc !== null;

/**
 * Whether a signal that does not fire has the evidence to say `cleared`. A rule that does not
 * fire for want of data (no probes, no price, a host never checked) proves nothing: the watch
 * reads `unknown` instead, and alerts only on a change between fired and cleared.
 */
const DECIDED: Readonly<Record<WarningCode, (s: SignalInput, h: HostChecks, now: number) => boolean>> = {
  unknown_endpoint: () => true,
  no_history: () => true,
  dead: (s, _h, now) => probed(s, now),
  failing: (s) => s.lastProbeAt !== null,
  // Not every endpoint failed, but only a healthy one proves the service is not a zombie.
  zombie: (s) => s.serviceHealthyEndpoints > 0,
  decoy_price_extreme: priced,
  suspicious_high_price: priced,
  slow: (s, _h, now) => probed(s, now) && s.avgLatency1hMs !== null,
  new_provider: (s) => s.serviceSince !== null,
  never_paid_zombie: (s) => s.listedSince !== null && s.l30dCalls !== null,
  proxy_markup: priced,
  wildcard_402: (_s, h) => h.wildcard_402_checked_at !== null,
  spa_fallback: (_s, h) => h.spa_fallback_checked_at !== null,
  dead_7d: (s, _h, now) => s.probes7d >= T.dead7dMinProbes && s.listedSince !== null && now - s.listedSince.getTime() >= T.dead7dMinListedMs,
  mostly_dead: (s) => s.probes7d >= T.dead7dMinProbes,
  slow_p99: (s) => s.p99Latency7dMs !== null,
  price_outlier_high: (s) => s.priceRatioToMedian !== null,
  high_concentration: (s) => s.concentrationPct !== null,
  // A fresh answer (healthy or not) proves whether the listing asked for payment in the hour.
  unchallenged: (s, _h, now) => s.lastProbeAt !== null && now - s.lastProbeAt.getTime() <= T.noHistoryWindowMs,
  // Cleared only on an hour with enough judged probes to say it was mostly healthy (decision 0049).
  flapping: (s, _h, now) => probed(s, now) && s.probes1h >= T.flapMinProbes1h,
  // Likewise whether its answers in the hour were mostly refusals of our input (decision 0046).
  needs_input: (s, _h, now) => s.lastProbeAt !== null && now - s.lastProbeAt.getTime() <= T.noHistoryWindowMs,
  // Decided once a paid check settled: before that, nothing says whether it delivers (decision 0051).
  paid_no_delivery: (s) => s.delivery != null || s.payerVotes != null,
  invalid_output: (s) => s.delivery != null,
  // Decided once the chain's settlements to its payTo are read (decision 0052).
  self_dealing: (s) => s.chain != null,
  // A quote rule is decided once a challenge was read; cloaking only once two profiles were compared.
  pay_to_mismatch: (s) => s.observedQuote?.live != null,
  pay_to_changed: (s) => s.observedQuote?.live != null,
  asset_not_usdc: (s) => s.observedQuote?.live != null,
  network_mismatch: (s) => s.observedQuote?.live != null,
  price_mismatch: (s) => s.observedQuote?.live != null,
  price_switch: (s) => s.observedQuote?.lowestAmount24h != null,
  cloaking: (s) => s.observedQuote?.live != null,
  malformed_quote: (s) => s.observedQuote?.live != null,
  source_disagrees: (s) => s.observedQuote?.live != null,
};

/** A firing signal is fired (each rule demands its own evidence); otherwise cleared only on evidence. */
export function signalState(code: WarningCode, fires: boolean, input: SignalInput, host: HostChecks, now: Date): WatchSignalState {
  if (fires) return "fired";
  return DECIDED[code](input, host, now.getTime()) ? "cleared" : "unknown";
}
