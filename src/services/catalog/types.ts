import type { Category } from "./constants.js";

/** One catalog item, checked and reduced to the columns of `listings`. */
export interface ParsedListing {
  url: string;
  urlNormalized: string;
  method: string;
  host: string;
  domain: string;
  serviceName: string;
  serviceId: string;
  origin: string;
  category: Category | null;
  tags: string[];
  description: string | null;
  /** null when no `exact` entry on a supported network names a USDC price. */
  priceUsdc: string | null;
  priceAtomic: string | null;
  currency: string | null;
  network: string | null;
  asset: string | null;
  payTo: string | null;
  /** The billing namespace: network and payee of the first accepts entry. */
  provider: { id: string; network: string; payTo: string };
  x402Version: number;
  resourceType: string;
  l30dCalls: number | null;
  l30dUniquePayers: number | null;
  lastCalledAt: Date | null;
  raw: Record<string, unknown>;
}

export type ParseResult = { ok: true; listing: ParsedListing } | { ok: false; reason: string; skipped?: boolean };

export type PollStatusName = "ok" | "partial" | "error";

/** What one poll of one source did; also the per-source element of a cycle's result. */
export interface PollSummary {
  /** The address polled. */
  source: string;
  /** The source's stable id (docs/catalog.md). */
  sourceId: string;
  pollId: number;
  status: PollStatusName;
  complete: boolean;
  pages: number;
  itemsSeen: number;
  /** Distinct listings upserted (duplicates and skipped items are not counted). */
  itemsValid: number;
  itemsMalformed: number;
  /** New listings plus reactivated ones. */
  added: number;
  reactivated: number;
  removed: number;
  /** Known listings whose price, currency, service, provider or category changed. */
  updated: number;
  error: string | null;
  durationMs: number;
  nextPollAt: Date;
}

/** Tunables of one ingester; defaults in constants.ts. */
export interface IngestOptions {
  /** Lease owner name; unique per ingester instance. */
  owner: string;
  cadenceMs: number;
  pageLimit: number;
  maxPages: number;
  requestTimeoutMs: number;
  pollBudgetMs: number;
  maxPageBytes: number;
  /** A source whose last complete poll is older than this stops counting (CATALOG_SOURCE_GRACE_HOURS). */
  sourceGraceMs: number;
  /** How often each origin's manifests are polled; 0 turns manifests off. */
  manifestCadenceMs: number;
  /** Connect to loopback and private addresses a catalog names (ALLOW_PRIVATE_TARGETS). */
  allowPrivateTargets: boolean;
  /** Draws the backoff jitter; Math.random unless a test fixes it. */
  random: () => number;
}
