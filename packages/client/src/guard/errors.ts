import type { VerdictEntry } from "@x402-lookout/contracts/snapshot/schemas";
import type { AlternativesAnswer, PreflightReport } from "../types.js";

/** Why the guard stopped a payment. */
export type BlockReason =
  | "not_ok"
  | "action"
  | "unknown_endpoint"
  | "price_above_max"
  | "price_unknown"
  /** The signed verdict is bound to another requirement than the one the x402 client was about to sign. */
  | "requirement_mismatch"
  /** Refused by the guard from the payment alone (QuoteRefusedError). */
  | LocalRefusal;

/** The guard refused to let the agent pay `url`: the report, the reasons and, if asked for, alternatives. */
export class PreflightBlockedError extends Error {
  constructor(
    readonly url: string,
    readonly report: PreflightReport,
    readonly reasons: readonly BlockReason[],
    /** Healthy substitutes, when the guard was asked to fetch them and some exist. */
    readonly alternatives?: AlternativesAnswer,
  ) {
    super(
      `payment to ${url} blocked by preflight: ${reasons.map((r) => (r === "action" ? `recommended_action ${report.recommended_action}` : r)).join(", ")}${report.reason_codes.length ? ` (reason_codes: ${report.reason_codes.join(", ")})` : ""}`,
    );
    this.name = "PreflightBlockedError";
  }
}

/** An entry's codes: reason_codes, or warnings in a snapshot kept from a service older than decision 0045 (they then held every code). */
const codesOf = (entry: VerdictEntry): readonly string[] => (entry as Partial<VerdictEntry>).reason_codes ?? entry.warnings;

/** The guard refused to let the agent pay `url` on its offline guard's signed snapshot: the entry that decided, the reasons and, if asked for, alternatives. */
export class SnapshotBlockedError extends Error {
  constructor(
    readonly url: string,
    readonly entry: VerdictEntry,
    readonly reasons: readonly BlockReason[],
    readonly alternatives?: AlternativesAnswer,
  ) {
    super(
      `payment to ${url} blocked by the signed snapshot (seq ${entry.seq}): ${reasons.map((r) => (r === "action" ? `recommended_action ${entry.action}` : r)).join(", ")}${codesOf(entry).length ? ` (reason_codes: ${codesOf(entry).join(", ")})` : ""}`,
    );
    this.name = "SnapshotBlockedError";
  }
}

/** The preflight check itself failed and the guard fails closed: nothing was paid to `url`. */
export class PreflightUnavailableError extends Error {
  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    super(`payment to ${url} not made: the preflight check failed (${cause instanceof Error ? cause.message : String(cause)})`, { cause });
    this.name = "PreflightUnavailableError";
  }
}

/** Refusals the guard makes from the payment alone, before or instead of asking the service. */
export type LocalRefusal = "malformed_quote" | "resource_mismatch" | "request_unknown" | "lookout_price_mismatch";

/** The payment was refused by the guard itself (docs/clients.md, "What is judged"): nothing was signed. */
export class QuoteRefusedError extends Error {
  constructor(
    readonly url: string,
    readonly reason: LocalRefusal,
    detail: string,
  ) {
    super(`payment to ${url} not made: ${detail}`);
    this.name = "QuoteRefusedError";
  }
}
