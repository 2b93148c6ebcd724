import type { ProbeRecord } from "../evidence/index.js";
import type { ObservedQuote } from "../signals/index.js";
import type { Attempts } from "./live-attempts.js";

/**
 * What the live probe of an uncatalogued URL showed, as live_probe_cache keeps it (JSON): the
 * probe record of its last request, and how many failed in a row.
 */
export interface LiveObservation extends Pick<ProbeRecord, "statusCode" | "errorKind" | "latencyMs" | "priceUsdc" | "challengeVersion" | "quote"> {
  /** The record's probedAt, as the cached JSON holds it. */
  probedAt: string;
  /** A refused customer URL is a failure here (no blocked, no unchallenged: see observationOf); a 400/422 without a challenge is needs_input (decision 0046). */
  outcome: "healthy" | "error" | "needs_input";
  // method, challengeVersion, failedAttempts (issue 23) and quote (issue 24) came later: rows cached before read with readObservation's defaults.
  /** The method of the last request. */
  method: string | null;
  /** Requests that failed in a row up to the last (runAttempts): 0 when it was healthy. */
  failedAttempts: number;
}

type Stored = Omit<LiveObservation, "method" | "challengeVersion" | "failedAttempts" | "quote"> & Partial<LiveObservation>;

/** A cached observation, older rows included: before the retry, an error was one failed attempt. */
export function readObservation(raw: unknown): LiveObservation {
  const o = (typeof raw === "string" ? JSON.parse(raw) : raw) as Stored;
  return {
    ...o,
    method: o.method ?? null,
    challengeVersion: o.challengeVersion ?? null,
    failedAttempts: o.failedAttempts ?? (o.outcome === "error" ? 1 : 0),
    quote: o.quote ?? null,
  };
}

/** The observation of a finished live probe that started at `now`. */
export function observationOf({ result: r, method, failedInARow }: Attempts, now: Date): LiveObservation {
  return {
    probedAt: now.toISOString(),
    // A live probe carries no listing price (never unchallenged); a refused customer URL stays a failure, as before decision 0037.
    outcome: r.outcome === "healthy" || r.outcome === "needs_input" ? r.outcome : "error",
    statusCode: r.statusCode,
    errorKind: r.errorKind,
    latencyMs: r.latencyMs,
    priceUsdc: r.priceUsdc,
    method,
    challengeVersion: r.challengeVersion,
    failedAttempts: failedInARow,
    quote: r.quote,
  };
}

/** A live probe's one challenge as the quote history of an uncatalogued URL. */
export function observedOf(obs: LiveObservation | null): ObservedQuote | null {
  const q = obs?.quote;
  if (!q) return null;
  const one = (v: string | null) => (v === null ? [] : [v]);
  return {
    live: { network: q.network, asset: q.asset, payTo: q.payTo, amount: q.amount, at: obs.probedAt },
    payTos7d: q.payTo === null ? 0 : 1,
    lowestAmount24h: null,
    profilesDisagree: false,
    highestAmount7d: q.amount,
    seen: { pay_to: one(q.payTo), asset: one(q.asset), network: [q.network], scheme: [q.scheme], resource_url: one(q.resourceUrl), amount: [q.amount] },
  };
}
