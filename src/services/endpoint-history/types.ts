import type { ForensicsReport } from "@x402-lookout/contracts/preflight/schemas";
/** One endpoint's public page data (issue 26, decision 0024): aggregates only, never a probe of the raw series. */

/** The stored preflight view (signal_snapshots.feed): the one verdict every product shows; `warnings` holds every code that fired (its reason_codes). */
export interface EndpointVerdict {
  ok: boolean;
  action: string;
  warnings: readonly string[];
}

export interface EndpointIdentity {
  id: number;
  url: string;
  method: string;
  serviceId: string;
  service: string;
  providerId: string | null;
  provider: string | null;
  category: string | null;
  network: string | null;
  /** The price the verdict priced it by (the live quote, else the catalog's), exact decimal USDC. */
  priceUsdc: string | null;
  isActive: boolean;
  firstSeenAt: Date;
}

/** One UTC hour of the last 7 days; latency figures null for an hour without a timed probe. */
export interface HourBucket {
  /** Start of the hour, ISO. */
  hour: string;
  probes: number;
  healthy: number;
  p50Ms: number | null;
  p90Ms: number | null;
}

/** One run of terms a challenge (source probe) or the catalog (source catalog) named. */
export interface QuoteSpan {
  source: string;
  profile: string;
  network: string;
  asset: string | null;
  payTo: string | null;
  /** Atomic units of the asset. */
  amount: string;
  /** The amount in USDC when the asset is the network's canonical USDC and the quote is well-formed, else null. */
  priceUsdc: string | null;
  /** Why the quote reads more than one way (docs/verdicts.md, one amount reader); `amount` is then what a client would sign. */
  malformed: string | null;
  firstSeenAt: Date;
  lastSeenAt: Date;
  seen: number;
  /** A catalog source's current claim that the endpoint's own challenge contradicts (source_disagrees, decision 0032). */
  disputed: boolean;
}

/** Consecutive UTC days with a delist flag; `recovered` once a later day passed unflagged. */
export interface FlagSpan {
  from: string;
  to: string;
  reasons: string[];
  recovered: boolean;
}

export interface CertificateSummary {
  certId: string;
  name: string;
  state: "verified" | "lapsed";
  issuedAt: Date;
  validUntil: Date;
}

export type VantageView = ForensicsReport["vantages"][number];

export interface EndpointHistory {
  endpoint: EndpointIdentity;
  /** null: no verdict pass reached it yet, or it left the catalog. */
  verdict: EndpointVerdict | null;
  /** Share of healthy probes over 7 days (the snapshot's, as the list shows it), one decimal. */
  uptime7dPct: number | null;
  /** Mean latency of the timed probes of the 168 hours, whole ms. */
  avgLatency7dMs: number | null;
  /** 168 hours, oldest first. */
  hourly: HourBucket[];
  statusCodes: Record<string, number>;
  quotes: QuoteSpan[];
  flags: FlagSpan[];
  certificates: CertificateSummary[];
  /** Uptime and the newest quote per probe vantage, as forensics shows them (decision 0048). */
  vantages: VantageView[];
  /** The paid checker's word: the summary and the last ten checks (decision 0051). */
  deliveries: ForensicsReport["delivery"];
  /** Settlements to it read from the chain (decision 0052); null when its payTo is not indexed. */
  settlements: ForensicsReport["evidence"]["settlements"];
  observedAt: Date;
}
