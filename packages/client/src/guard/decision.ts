import type { VerdictEntry } from "@x402-lookout/contracts/snapshot/schemas";
import type { PreflightReport } from "../types.js";
import { QuoteRefusedError, PreflightBlockedError, PreflightUnavailableError, SnapshotBlockedError, type BlockReason } from "./errors.js";
import type { DecidingMode } from "./modes.js";

/**
 * Why a decision is not a plain allow: the verdict's block reasons, unknown_endpoint for a warned
 * endpoint, service_unavailable for an outage, stale_verdict for a verdict expired at the agent's
 * clock even when asked again, check_failed for any other failed check (a bad request, a refused
 * payment, a bad or unbound signature).
 */
export type DecisionReason = BlockReason | "service_unavailable" | "stale_verdict" | "check_failed";

/** One decision of guardFetch or lookoutPolicy, as onDecision receives it (docs/clients.md, "Payment policy"). */
export interface GuardDecision {
  /** The endpoint checked (without query and fragment). */
  url: string;
  /** endpoint: guardFetch's check before any request; quote: the check of the requirement about to be signed. */
  stage: "endpoint" | "quote";
  /** allow and warn let the payment go; block stops it. */
  decision: "allow" | "warn" | "block";
  reasons: DecisionReason[];
  /** The mode that decided, when one did: failMode on an outage, unknown on an endpoint with no other finding. */
  mode?: DecidingMode;
  /** The verdict's signature (compact JWS) as the report carried it, when there was a report. */
  signature?: string;
  /** At the quote stage: the digest of the selected requirement, which the signed verdict must bind. */
  requirementDigest?: string;
  report?: PreflightReport;
  /** Whether the report came from the cache (or from a check already in flight). */
  cached: boolean;
  /** The failure, when the check failed. */
  error?: unknown;
  /** Set when an offline guard's signed snapshot decided locally (either stage): its entry (no preflight was asked). */
  snapshotEntry?: VerdictEntry;
}

/** The error a blocking decision stands for: the verdict's block (preflight's or the snapshot's), or the failed check. */
export function refusalOf(d: GuardDecision, alternatives?: PreflightBlockedError["alternatives"]): Error {
  if (d.report && d.error === undefined) return new PreflightBlockedError(d.url, d.report, d.reasons as BlockReason[], alternatives);
  if (d.snapshotEntry && d.error === undefined) return new SnapshotBlockedError(d.url, d.snapshotEntry, d.reasons as BlockReason[], alternatives);
  return d.error instanceof PreflightUnavailableError || d.error instanceof QuoteRefusedError ? d.error : new PreflightUnavailableError(d.url, d.error);
}
