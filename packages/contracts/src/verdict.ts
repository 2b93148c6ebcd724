import { z } from "zod";

/**
 * A signed verdict (docs/verdicts.md): the claims the service signs on every preflight,
 * preflight-trial, batch element and forensics answer, and how. The server signs them, the
 * typed client verifies them; both read this file, so the format cannot drift between them.
 */
export const VERDICT_JWS = {
  alg: "EdDSA",
  typ: "lookout-verdict+jwt",
  /** A verdict speaks for the moment it was observed: it expires 5 minutes later. */
  lifetimeSeconds: 300,
  /** Where the service publishes the keys, under its base URL. */
  jwksPath: "/.well-known/jwks.json",
} as const;

export const VerdictClaimsSchema = z.object({
  iss: z.string().describe("the service's public base URL"),
  url: z.string().describe("the URL as asked (a batch element's input URL)"),
  method: z.string().describe("the HTTP method the verdict is about: the asked one, else the listing's"),
  requirement_digest: z.string().nullable().describe("sha256 (base64url) of the checked requirement's canonical terms; null without paymentRequired"),
  view: z.enum(["preflight", "forensics"]).describe("which product's view of the verdict: forensics adds its 7-day warnings"),
  ok: z.boolean(),
  recommended_action: z.enum(["pay", "skip", "use_alternatives", "investigate"]),
  warnings: z.array(z.string()).describe("the answer's warnings (the spec's codes), in its order"),
  reason_codes: z
    .array(z.string())
    .optional()
    .describe(
      "the answer's reason_codes (every code that fired), in its order; absent from verdicts signed before decision 0045, whose reason_codes equal their warnings",
    ),
  risk_score: z.number(),
  observed_at: z.string().describe("as in the answer (a batch element: the envelope's)"),
  exp: z.number().int().describe("observed_at plus 300 s, in Unix seconds"),
});

export type VerdictClaims = z.infer<typeof VerdictClaimsSchema>;

/** The answer fields a signature covers, as the answer states them: a verifier compares them with the claims. */
export const SIGNED_ANSWER_FIELDS = ["ok", "recommended_action", "warnings", "reason_codes", "risk_score"] as const;

/** What a verdict signs for a field: a verdict signed before decision 0045 has no reason_codes, which then equalled its warnings. */
export const signedValue = (claims: Partial<VerdictClaims>, field: (typeof SIGNED_ANSWER_FIELDS)[number]): unknown =>
  field === "reason_codes" ? (claims.reason_codes ?? claims.warnings) : claims[field];
