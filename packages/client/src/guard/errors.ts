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
  /** The requirement's amount reads more than one way (docs/verdicts.md): refused before any check. */
  | "malformed_quote";

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
      `payment to ${url} blocked by preflight: ${reasons.map((r) => (r === "action" ? `recommended_action ${report.recommended_action}` : r)).join(", ")}${report.warnings.length ? ` (warnings: ${report.warnings.join(", ")})` : ""}`,
    );
    this.name = "PreflightBlockedError";
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

/** The requirement about to be signed reads more than one way: refused locally, nothing asked, nothing signed. */
export class MalformedQuoteError extends Error {
  constructor(
    readonly url: string,
    readonly malformed: string,
  ) {
    super(`payment to ${url} not made: the requirement's amount is malformed (${malformed}); what would be signed is not what can be checked`);
    this.name = "MalformedQuoteError";
  }
}
