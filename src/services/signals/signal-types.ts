import type { ListedQuote, ObservedQuote } from "./quote-evidence.js";

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
  /** Probes of the last hour a paid listing answered 2xx without a challenge (not in probes1h); absent: none. */
  unchallenged1h?: number;
  /** Probes of the last hour answered 400 or 422 without a challenge (not in probes1h; decision 0046); absent: none. */
  needsInput1h?: number;
  /** Healthy probes of the last hour (of probes1h); absent: none. */
  healthy1h?: number;
  avgLatency1hMs: number | null;
  lastProbeAt: Date | null;
  probes7d: number;
  healthy7d: number;
  p99Latency7dMs: number | null;
  /** Distinct endpoints of the listing's service; those that failed in the zombie window (enough probes, none healthy); those with a healthy probe there. */
  serviceEndpoints: number;
  serviceFailedEndpoints: number;
  serviceHealthyEndpoints: number;
  /** The provider's first sighting anywhere: its service's or payee's first sighting here, or an older last call. */
  serviceSince: Date | null;
  /** A catalog reports paid calls of the provider (settlements it counted): it has a track record. */
  providerCalled: boolean;
  listedSince: Date | null;
  l30dCalls: number | null;
  lastCalledAt: Date | null;
  wildcard402: boolean;
  spaFallback: boolean;
  /** Reference price for markup, when a peer or floor price exists. */
  markupReferenceUsdc: number | null;
  priceRatioToMedian: number | null;
  concentrationPct: number | null;
  /** The terms the catalog lists, and what the prober's challenges showed (null: none read yet). */
  listedQuote: ListedQuote | null;
  observedQuote: ObservedQuote | null;
  /** The newest settled paid check (decision 0051); absent or null: never settled one. */
  delivery?: { outcome: string; at: Date } | null;
  /** Payers' newest reports within 7 days, one vote per wallet (decision 0052); absent: none. */
  payerVotes?: { failed: number; delivered: number } | null;
  /** The chain's settlements to the listing (decision 0052); absent or null: not indexed. */
  chain?: { used30d: boolean; selfDealing: boolean } | null;
}

/** One code's predicate over the input at `now` (ms). */
export type Rule = (s: SignalInput, now: number) => boolean;
