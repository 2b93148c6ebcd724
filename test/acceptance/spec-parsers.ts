import { z } from "zod";

type Enumerations = Record<string, { values: string[] }>;

/**
 * Parsers as a client generated from the spec would have them: each enumeration closed (the
 * spec's values, nothing else), the fields the spec names required, fields it does not name let
 * through (a generated client ignores them). Built from test/fixtures/spec-enumerations.json.
 */
export function specParsers(spec: Enumerations) {
  const oneOf = (name: string) => z.enum(spec[name]!.values as [string, ...string[]]);
  const unit = z.number().min(0).max(1);
  const basis = oneOf("effective_count_basis").nullable();
  const markup = z.object({ detected: z.literal(true), confidence: oneOf("proxy_markup_confidence"), basis: oneOf("proxy_markup_basis") }).passthrough();
  const metadata = z
    .object({
      url: z.string(),
      service: z.string(),
      service_id: z.string(),
      is_active: z.boolean(),
      effective_count_basis: basis,
      proxy_markup: markup.optional(),
    })
    .passthrough();
  const verdict = (warning: z.ZodType) => ({
    ok: z.boolean(),
    warnings: z.array(warning),
    risk_score: unit,
    confidence: unit,
    recommended_action: oneOf("recommended_action"),
    reason_codes: z.array(z.string()),
    metadata,
  });
  const preflightWarning = oneOf("preflight_warnings");
  const forensicsWarning = z.enum([...spec.preflight_warnings!.values, ...spec.forensics_warnings!.values] as [string, ...string[]]);
  const byAction = z.partialRecord(oneOf("recommended_action"), z.number().int());
  const blacklistReason = oneOf("blacklist_reasons");

  return {
    preflight: z.object({ ...verdict(preflightWarning), observed_at: z.string(), evidence: z.object({}).passthrough() }).passthrough(),
    batch: z
      .object({
        results: z.array(z.object({ url: z.string(), ...verdict(preflightWarning) }).passthrough()),
        summary: z.object({ total: z.number().int(), ok: z.number().int(), blocked: z.number().int(), by_recommended_action: byAction }),
        paid_amount: z.literal("0.025"),
      })
      .passthrough(),
    forensics: z
      .object({
        ...verdict(forensicsWarning),
        decoy_probability: unit,
        concentration: z.object({ effective_count_basis: basis }).passthrough(),
      })
      .passthrough(),
    decoys: z
      .object({
        counts: z.object({ total: z.number().int(), by_reason: z.partialRecord(blacklistReason, z.number().int()) }).passthrough(),
        entries: z.array(z.object({ url: z.string(), reasons: z.array(blacklistReason) }).passthrough()),
      })
      .passthrough(),
    alternatives: z
      .object({
        match_strategy: oneOf("match_strategy"),
        alternatives: z.array(z.object({ url: z.string(), match_reason: oneOf("match_reason") }).passthrough()),
        candidate_count: z.number().int(),
      })
      .passthrough(),
    delist: z
      .object({
        mode: oneOf("delist_mode"),
        // The snapshot's by_reason: blacklist reasons and ghost_listing (/spec 2.13); the diff has none.
        counts: z
          .object({
            by_reason: z.partialRecord(z.enum(["ghost_listing", ...spec.blacklist_reasons!.values]), z.number().int()).optional(),
          })
          .passthrough(),
        should_delist: z.array(z.object({ url: z.string(), reasons: z.array(z.string()), first_flagged_at: z.string(), confidence: z.string() }).passthrough()),
        recovered: z.array(z.object({ url: z.string() }).passthrough()),
      })
      .passthrough(),
  };
}
