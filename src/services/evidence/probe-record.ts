import type { QuoteTerms } from "@x402-lookout/contracts/quote";
import type { ProbeOutcome } from "../../db/schema.js";

/**
 * One probe, one row of `probes`, whoever took it: the prober, the live probe of an uncatalogued
 * URL (listing 0, cached but never stored) and an imported history (no terms, no profile) alike.
 */
export interface ProbeRecord {
  listingId: number;
  /** The business time the probe started. */
  probedAt: Date;
  outcome: ProbeOutcome;
  /** null when no HTTP response arrived. */
  statusCode: number | null;
  /** Network error kind, or no_challenge for a 402 without a readable challenge. */
  errorKind: string | null;
  /** Time to response headers; null without a response. */
  latencyMs: number | null;
  /** Decimal USDC string from the challenge. */
  priceUsdc: string | null;
  challengeVersion: number | null;
  /** The full terms of the accept entry that prices the listing (packages/contracts/src/quote.ts). */
  quote: QuoteTerms | null;
  /** The request profile the probe wore (src/services/probes/profiles.ts); null when unknown (imported). */
  profile: string | null;
  /** The prober's vantage (decision 0048); absent: 'default' (one vantage, imports, live probes). */
  vantage?: string;
}
