import type { SignalContext } from "./group-context.js";
import type { SignalInput } from "./engine.js";
import type { ListedQuote, ObservedQuote } from "./quote-evidence.js";
import { currentPrice, type ReportRow } from "./listing-row.js";
import { reportsCalls } from "./provider-since.js";

/** The engine's input for a catalogued listing: its row plus the context of the last recompute. */
export function signalInput(row: ReportRow, context: SignalContext | null): SignalInput {
  // Before any challenge was read, the price is the listed source's, not the newest sighting's.
  const observedPrice = (row.detail as { last_price_usdc?: unknown } | null)?.last_price_usdc;
  const listedSource = quoteOf(row)?.catalog?.listed;
  const price = typeof observedPrice === "string" || !listedSource ? currentPrice(row) : listedSource.priceUsdc;
  const priceUsdc = price === null ? null : Number(price);
  const median = context?.group.group_median_price_usdc ?? null;
  const probes1h = row.probes_1h ?? 0;
  return {
    known: row.is_active,
    priceUsdc,
    probes30m: row.probes_30m ?? 0,
    healthy30m: row.healthy_30m ?? 0,
    failStreak: row.fail_streak ?? 0,
    probes1h,
    unchallenged1h: row.unchallenged_1h ?? 0,
    needsInput1h: row.needs_input_1h ?? 0,
    healthy1h: row.healthy_1h ?? 0,
    avgLatency1hMs: row.avg_latency_1h_ms,
    lastProbeAt: row.last_probe_at,
    probes7d: row.probes_7d ?? 0,
    healthy7d: row.healthy_7d ?? 0,
    p99Latency7dMs: row.p99_latency_7d_ms,
    // No context, or one stored before these counts existed: nothing to call a zombie on.
    serviceEndpoints: context?.service_endpoints ?? 0,
    serviceFailedEndpoints: context?.service_failed_endpoints ?? 0,
    serviceHealthyEndpoints: context?.service_healthy_endpoints ?? 0,
    serviceSince: context?.service_since ? new Date(context.service_since) : row.service_first_seen_at,
    providerCalled: context?.provider_called ?? reportsCalls(row),
    listedSince: row.first_seen_at,
    l30dCalls: row.l30d_calls,
    lastCalledAt: row.last_called_at,
    wildcard402: row.wildcard_402_detected ?? false,
    spaFallback: row.spa_fallback_detected ?? false,
    markupReferenceUsdc: context?.markup?.reference_price_usdc ?? null,
    priceRatioToMedian: priceUsdc !== null && median !== null && median > 0 ? Math.round((priceUsdc / median) * 1000) / 1000 : null,
    concentrationPct: context?.group.concentration_pct ?? null,
    listedQuote: listedTerms(row),
    observedQuote: quoteOf(row),
    delivery: settledCheck(row),
    payerVotes: payerVotes(row),
    chain: chainWord(row),
  };
}

// Payers' reports, one vote per wallet (decision 0052).
function payerVotes(row: ReportRow): SignalInput["payerVotes"] {
  const payers = (row.delivery as { payers?: { failed_payers_7d: number; delivered_payers_7d: number } | null } | null)?.payers;
  return payers ? { failed: payers.failed_payers_7d, delivered: payers.delivered_payers_7d } : null;
}

// What the chain says of its use, where the indexer has read its payTo (decision 0052).
function chainWord(row: ReportRow): SignalInput["chain"] {
  const s = row.settlements as { used_30d?: boolean; self_dealing?: boolean } | null | undefined;
  return s && typeof s.used_30d === "boolean" ? { used30d: s.used_30d, selfDealing: s.self_dealing === true } : null;
}

// The newest check that paid: what paid_no_delivery and invalid_output judge (decision 0051).
function settledCheck(row: ReportRow): SignalInput["delivery"] {
  const settled = (row.delivery as { settled?: { outcome: string; at: string } | null } | null)?.settled;
  return settled ? { outcome: settled.outcome, at: new Date(settled.at) } : null;
}

const quoteOf = (row: ReportRow) => (row.detail as { quote?: ObservedQuote } | null)?.quote ?? null;

/**
 * The terms the quote rules compare against: the source the endpoint's own challenge agrees
 * with, else the most authoritative one (decision 0032); a snapshot without one, the listing's.
 */
function listedTerms(row: ReportRow): ListedQuote {
  const source = quoteOf(row)?.catalog?.listed;
  if (source) return { network: source.network, asset: source.asset, payTo: source.payTo, amount: source.amount, url: row.url };
  return { network: row.network, asset: row.asset, payTo: row.pay_to, amount: row.price_atomic, url: row.url };
}

/** The context a snapshot carries, if the recompute has written one. */
export const storedContext = (row: ReportRow): SignalContext | null => (row.detail as { context?: SignalContext } | null)?.context ?? null;
