import { CRITICAL, INFORMATIONAL, type WarningCode } from "../signals/constants.js";
import { confidenceOf, verdictFrom } from "../signals/engine.js";
import { CERTIFICATE as C, type CriterionId } from "./constants.js";
import type { ListingEvidence } from "./evidence.js";

export type Observed = number | string | null;

export interface FailingListing {
  url: string;
  method: string;
  observed: Observed;
}

/** One criterion, reported whether met or not, with the listings that fail it. */
export interface CriterionReport {
  id: CriterionId;
  description: string;
  required: string;
  met: boolean;
  /** The worst value over the covered listings (the single value for one endpoint). */
  observed: Observed;
  failing: FailingListing[];
  failing_count: number;
}

interface Check {
  id: CriterionId;
  description: string;
  required: string;
  /** The listing's value and whether it passes. */
  read(e: ListingEvidence): { ok: boolean; value: Observed };
  /** The worst of the covered listings' values. */
  worst(values: Observed[]): Observed;
}

const nums = (values: Observed[]) => values.filter((v): v is number => typeof v === "number");
const minOf = (values: Observed[]) => (nums(values).length === values.length && values.length > 0 ? Math.min(...nums(values)) : null);
const maxOrNull = (values: Observed[]) => (values.some((v) => v === null) || values.length === 0 ? null : Math.max(...nums(values)));
const round1 = (v: number) => Math.round(v * 10) / 10;

/** How old the newest challenge may be when a needs_input answer followed it (one probe interval at most, by default). */
const CHALLENGE_BEHIND_INPUT_MS = 60 * 60_000;

/**
 * A 400/422 to a profile that sends no body (decision 0046) tells of the probe's request, not the
 * offer, so the newest challenge of the last hour stands for the latest probe; without one it is unmet.
 */
const quotedBehindInput = (e: ListingEvidence) =>
  e.lastOutcome === "needs_input" &&
  e.lastChallengeAt !== null &&
  e.lastProbeAt !== null &&
  e.lastProbeAt.getTime() - e.lastChallengeAt.getTime() <= CHALLENGE_BEHIND_INPUT_MS;

function challengeOf(e: ListingEvidence): { ok: boolean; value: string } {
  if (e.lastOutcome === null) return { ok: false, value: "never probed" };
  if (quotedBehindInput(e)) {
    if (e.lastChallengeVersion !== C.challengeVersion) return { ok: false, value: `x402 v${e.lastChallengeVersion ?? "?"} challenge` };
    return { ok: true, value: "x402 v2 challenge (402) to the declared input" };
  }
  if (e.lastOutcome !== "healthy" || e.lastStatusCode !== 402) return { ok: false, value: `latest probe answered ${e.lastStatusCode ?? "a network error"}` };
  if (e.lastChallengeVersion !== C.challengeVersion) return { ok: false, value: `x402 v${e.lastChallengeVersion ?? "?"} challenge` };
  return { ok: true, value: "x402 v2 challenge (402)" };
}

/**
 * The listing's stored verdict recommends pay by the engine's own rule (preflight's), and nothing
 * delists it: what keeps it off pay is listed (warnings about the endpoint, ghost_listing, ...).
 */
function verdictOf(e: ListingEvidence): { ok: boolean; value: string } {
  if (!e.hasVerdict) return { ok: false, value: "no verdict yet" };
  const action = verdictFrom(e.warnings, e.active, confidenceOf(e.probes1h), "forensics").recommended_action;
  const against = [...new Set([...e.warnings.filter((w) => !INFORMATIONAL.has(w as WarningCode)), ...e.delistReasons])];
  if (action === "pay" && e.delistReasons.length === 0) return { ok: true, value: "pay" };
  return { ok: false, value: against.join(", ") || action };
}

/** The union of what a criterion's listings name, or `clean` when none names anything. */
const unionOr = (clean: string) => (values: Observed[]) =>
  [...new Set(values.flatMap((v) => (v === clean || v === null ? [] : String(v).split(", "))))].join(", ") || clean;

const CHECKS: readonly Check[] = [
  {
    id: "probes_7d",
    description: `at least ${C.minProbes7d} probes in the last 7 days`,
    required: `>= ${C.minProbes7d}`,
    read: (e) => ({ ok: e.probes7d >= C.minProbes7d, value: e.probes7d }),
    worst: minOf,
  },
  {
    id: "uptime_7d",
    description: `7-day uptime of at least ${C.minUptime7dPct}%`,
    required: `>= ${C.minUptime7dPct}%`,
    read: (e) => ({ ok: e.uptime7dPct !== null && e.uptime7dPct >= C.minUptime7dPct, value: e.uptime7dPct === null ? null : round1(e.uptime7dPct) }),
    worst: minOf,
  },
  {
    id: "no_critical_warning",
    // Named from the set the verdict reads, so the text cannot fall behind it (decision 0035 grew it).
    description: `no critical warning (${[...CRITICAL].join(", ")})`,
    required: "none",
    read: (e) => {
      const critical = e.warnings.filter((w) => CRITICAL.has(w as WarningCode));
      return { ok: critical.length === 0, value: critical.length === 0 ? "none" : critical.join(", ") };
    },
    worst: unionOr("none"),
  },
  {
    id: "clean_verdict",
    description:
      "the listing's own verdict is pay and nothing delists it: no wallet-drain price, no wildcard_402, spa_fallback, proxy_markup or failing listing, no other warning about the endpoint, not a ghost listing",
    required: "pay",
    read: verdictOf,
    worst: unionOr("pay"),
  },
  {
    id: "p99_latency_7d",
    description: `p99 latency over 7 days of at most ${C.maxP99LatencyMs} ms`,
    required: `<= ${C.maxP99LatencyMs} ms`,
    read: (e) => ({ ok: e.p99Latency7dMs !== null && e.p99Latency7dMs <= C.maxP99LatencyMs, value: e.p99Latency7dMs }),
    worst: maxOrNull,
  },
  {
    id: "price_range",
    description: `price between ${C.minPriceUsdc} and ${C.maxPriceUsdc} USDC`,
    required: `${C.minPriceUsdc} to ${C.maxPriceUsdc} USDC`,
    read: (e) => {
      const p = e.priceUsdc === null ? NaN : Number(e.priceUsdc);
      return { ok: p >= C.minPriceUsdc && p <= C.maxPriceUsdc, value: e.priceUsdc };
    },
    worst: (values) => {
      const prices = values.filter((v): v is string => typeof v === "string").sort((a, b) => Number(a) - Number(b));
      if (prices.length !== values.length || prices.length === 0) return null;
      return prices[0] === prices.at(-1) ? prices[0]! : `${prices[0]} to ${prices.at(-1)}`;
    },
  },
  {
    id: "x402_v2_challenge",
    description: "a valid x402 v2 challenge (HTTP 402) on the latest probe",
    required: "x402 v2 challenge (402)",
    read: challengeOf,
    worst: (values) => values.find((v) => v !== "x402 v2 challenge (402)") ?? values[0] ?? null,
  },
];

function report(check: Pick<Check, "id" | "description" | "required">, met: boolean, observed: Observed, failing: FailingListing[]): CriterionReport {
  return {
    id: check.id,
    description: check.description,
    required: check.required,
    met,
    observed,
    failing: failing.slice(0, C.maxFailingReported),
    failing_count: failing.length,
  };
}

/**
 * Every criterion over every covered listing. A criterion is met only when every listing meets
 * it; with no listing at all, nothing is met (there is no evidence to certify).
 */
export function evaluateCriteria(listings: readonly ListingEvidence[]): CriterionReport[] {
  const inactive = listings.filter((e) => !e.active).map((e) => ({ url: e.url, method: e.method, observed: "no longer listed" }));
  const inCatalog = report(
    { id: "in_catalog", description: "at least one active catalog listing is covered, and every covered listing is active", required: ">= 1 active listing" },
    listings.length > 0 && inactive.length === 0,
    listings.length - inactive.length,
    inactive,
  );
  const rest = CHECKS.map((check) => {
    const reads = listings.map((e) => ({ e, ...check.read(e) }));
    const failing = reads.filter((r) => !r.ok).map((r) => ({ url: r.e.url, method: r.e.method, observed: r.value }));
    return report(check, listings.length > 0 && failing.length === 0, check.worst(reads.map((r) => r.value)), failing);
  });
  return [inCatalog, ...rest];
}

export const allMet = (criteria: readonly CriterionReport[]) => criteria.every((c) => c.met);
