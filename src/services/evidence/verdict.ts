import { confidenceFor, evaluate, type Mode, type SignalInput, type Verdict, verdictFrom } from "../signals/index.js";

/** A verdict as the snapshot row stores it; risk_score is null until the pipeline has judged the listing. */
export interface StoredVerdict {
  warnings: readonly string[] | null;
  risk_score: number | null;
}

/** Judges one endpoint on its evidence, every code included: the one caller of evaluate. */
export const judge = (input: SignalInput, now: Date): Verdict => evaluate(input, now, "forensics");

/**
 * The one verdict behind every product: the stored one (the full pass's or the incremental
 * update's), else, for a listing not judged yet or an uncatalogued URL's live probe, judged now.
 */
export const firedOf = (input: SignalInput, stored: StoredVerdict | null, now: Date): readonly string[] =>
  stored && stored.risk_score !== null && stored.warnings ? stored.warnings : judge(input, now).reason_codes;

/** What a product shows of that verdict: preflight its codes, forensics all, the action from them. */
export const viewOf = (fired: readonly string[], input: SignalInput, mode: Mode): Verdict => verdictFrom(fired, input.known, confidenceFor(input), mode);
