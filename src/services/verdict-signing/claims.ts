import type { VerdictClaims } from "@x402-lookout/contracts/verdict";

/** The verdict fields of an answer (a report or a batch element), as the answer states them. */
export interface SignedFields {
  ok: boolean;
  recommended_action: VerdictClaims["recommended_action"];
  warnings: readonly string[];
  reason_codes: readonly string[];
  risk_score: number;
}

/**
 * The claims of one answer (docs/verdicts.md, claim by claim): copied from the answer itself, so
 * a verifier compares like with like; `url` is the URL as asked, `observed_at` the answer's (a
 * batch element's: its envelope's), `requirement_digest` the checked quote's or null.
 */
export function verdictClaims(
  answer: SignedFields,
  about: { url: string; method: string; requirementDigest: string | null; view: VerdictClaims["view"]; observedAt: string },
): Omit<VerdictClaims, "iss" | "exp"> {
  return {
    url: about.url,
    method: about.method,
    requirement_digest: about.requirementDigest,
    view: about.view,
    ok: answer.ok,
    recommended_action: answer.recommended_action,
    warnings: [...answer.warnings],
    // Signed since decision 0045: the additions (cloaking, price_switch...) speak only here.
    reason_codes: [...answer.reason_codes],
    risk_score: answer.risk_score,
    observed_at: about.observedAt,
  };
}
