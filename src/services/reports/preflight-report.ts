import { deliveryView } from "./delivery-view.js";
import type { PreflightReport } from "@x402-lookout/contracts/preflight/schemas";
import { roundUsdc, usdcDecimal } from "../../lib/money.js";
import { HOUR } from "../signals/constants.js";
import type { SignalInput, Verdict } from "../signals/engine.js";
import type { SignalContext } from "../signals/group-context.js";
import { currentPrice, type ReportRow } from "../signals/listing-row.js";
import type { HostFacts } from "./listing-lookup.js";
import type { LiveObservation } from "./live-observation.js";
import { signalInput, storedContext } from "../signals/signal-input.js";
import { firedOf, viewOf } from "../evidence/index.js";
import type { QuoteCheck } from "../quotes/check.js";
import { settledMetadata } from "./settlements-view.js";
import type { MatchedBy } from "@x402-lookout/contracts/url-match";

/** A listing, or what one live probe saw of an unknown URL, ready to be reported. */
export interface Subject {
  url: string;
  /** The method the verdict is about: the asked one, else the listing's, else the live probe's. */
  method: string;
  service: string;
  serviceId: string;
  price: string | null;
  currency: string;
  isActive: boolean;
  row: ReportRow | null;
  context: SignalContext | null;
  input: SignalInput;
  /** The one verdict's codes (signals/verdict.ts): every product shows its view of them. */
  fired: readonly string[];
  /** An uncatalogued URL's host checks (a catalogued one reads them from its row). */
  hostChecks?: HostFacts | null;
  /** The agent's quote checked against the listing and its history, when one was given. */
  quote?: QuoteCheck;
  /** The listing the asked URL reached, and how; null when none did. */
  matched: { url: string; method: string; by: MatchedBy } | null;
  /** An uncatalogued URL's live probe, which its forensics history shows. */
  live?: LiveObservation | null;
}

export function subjectOf(row: ReportRow, now: Date, by: MatchedBy = "exact"): Subject {
  const context = storedContext(row);
  const input = signalInput(row, context);
  return {
    url: row.url,
    method: row.method,
    service: row.service_name,
    serviceId: row.service_id,
    price: currentPrice(row),
    currency: row.currency ?? "USDC",
    isActive: row.is_active,
    row,
    context,
    input,
    fired: firedOf(input, row, now),
    matched: { url: row.url, method: row.method, by },
  };
}

const round = (n: number | null | undefined) => (n === null || n === undefined ? null : Math.round(n));

export function proxyMarkupDetail(s: Subject, verdict: Verdict) {
  const m = s.context?.markup;
  if (!m || !verdict.reason_codes.includes("proxy_markup")) return undefined;
  // The spec types these prices as numbers: rounded to 6 places, so none carries a float artefact.
  const observed = roundUsdc(s.input.priceUsdc);
  const reference = roundUsdc(m.reference_price_usdc);
  return {
    detected: true as const,
    confidence: m.confidence,
    observed_price_usdc: observed,
    reference_price_usdc: reference,
    estimated_markup_ratio: observed !== null && reference !== null && reference > 0 ? Math.round((observed / reference) * 100) / 100 : null,
    basis: m.basis,
    evidence: m.evidence,
  };
}

export function metadataOf(s: Subject, verdict: Verdict) {
  const r = s.row;
  // An uncatalogued URL has no row: what is known of its host comes from its host checks.
  const h = r ?? s.hostChecks ?? null;
  const wildcard = r?.wildcard_402_detected ?? s.input.wildcard402;
  const spa = r?.spa_fallback_detected ?? s.input.spaFallback;
  const hostTrap = wildcard || spa;
  const markup = proxyMarkupDetail(s, verdict);
  return {
    url: s.url,
    service: s.service,
    service_id: s.serviceId,
    // Decision 0016: null when no listing or challenge quoted a price, never "".
    price_usdc: usdcDecimal(s.price),
    currency: s.currency,
    uptime_1h_pct: round(r?.uptime_1h_pct),
    avg_latency_ms: r?.avg_latency_1h_ms ?? s.input.avgLatency1hMs,
    is_active: s.isActive,
    ...(markup ? { proxy_markup: markup } : {}),
    wildcard_402_detected: wildcard,
    wildcard_402_checked_at: h?.wildcard_402_checked_at?.toISOString() ?? null,
    spa_fallback_detected: spa,
    spa_fallback_checked_at: h?.spa_fallback_checked_at?.toISOString() ?? null,
    effective_count_basis: hostTrap ? (h?.effective_count_basis ?? "canonical_homepage") : null,
    ...settledMetadata(r ?? null),
    matched: s.matched,
  };
}

export function serviceAgeHours(s: Subject, now: Date): number | null {
  const since = s.input.serviceSince;
  return since ? Math.round(((now.getTime() - since.getTime()) / HOUR) * 10) / 10 : null;
}

export function evidenceOf(s: Subject, verdict: Verdict, now: Date) {
  return {
    probes_1h: s.input.probes1h,
    healthy_1h: s.row?.healthy_1h ?? (s.input.lastProbeAt && s.input.healthy30m > 0 ? 1 : 0),
    errors_30m: s.input.probes30m - s.input.healthy30m,
    price_amount_usdc: usdcDecimal(s.price),
    service_age_hours: serviceAgeHours(s, now),
    proxy_markup: proxyMarkupDetail(s, verdict) ?? { detected: false as const },
    wildcard_402_detected: s.row?.wildcard_402_detected ?? s.input.wildcard402,
  };
}

/** The preflight report of one subject at `now` (/spec#preflight); `base` is the service's own address (evidence links). */
export function preflightReport(s: Subject, now: Date, base: string): PreflightReport {
  const verdict = viewOf(s.fired, s.input, "preflight");
  return {
    ...verdict,
    metadata: metadataOf(s, verdict),
    observed_at: now.toISOString(),
    evidence: evidenceOf(s, verdict, now),
    delivery: deliveryView(s.row, base),
  };
}
