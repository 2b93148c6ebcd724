import { z } from "zod";
import { ALL_CODES, SPEC_PREFLIGHT_CODES, SPEC_WARNING_CODES } from "../codes.js";
import { dateTime, percent } from "../common.js";
import { DeliverySchema, ForensicsDeliverySchema } from "./delivery.js";
import { SettlementsSchema } from "./settlements.js";

/** The preflight report, its batch element, and the forensics superset (/spec#preflight, #preflight-batch, #forensics). */

/** Every code a verdict can carry, the spec's and this service's additions (docs/signals.md): `reason_codes`. */
export const ReasonCodeSchema = z.enum(ALL_CODES as unknown as [string, ...string[]]);
/** The spec's closed enumeration (/spec 2.1), forensics' five included: a forensics answer's `warnings`. */
export const WarningCodeSchema = z.enum(SPEC_WARNING_CODES as unknown as [string, ...string[]]);
/** The spec's preflight warnings: `warnings` of preflight, the trial and batch elements. */
export const PreflightWarningCodeSchema = z.enum(SPEC_PREFLIGHT_CODES);
export const RecommendedActionSchema = z.enum(["pay", "skip", "use_alternatives", "investigate"]);
/** Money as an exact decimal string: at most 6 places (USDC's decimals), no exponent, no sign. */
export const DECIMAL_6 = /^\d+(\.\d{1,6})?$/;
const usdcDecimal = () => z.string().regex(DECIMAL_6).nullable();
/** A USDC amount the spec types as a number: rounded to 6 places; null when unknown. */
const usdcNumber = () => z.number().nullable().describe("USDC, rounded to 6 places; null when unknown");
const EffectiveCountBasis = z.enum(["sitemap_url_count", "manifest_resource_count", "canonical_homepage"]).nullable();

export const ProxyMarkupSchema = z.object({
  detected: z.literal(true),
  confidence: z.enum(["medium", "high"]),
  observed_price_usdc: usdcNumber(),
  reference_price_usdc: usdcNumber(),
  estimated_markup_ratio: z.number().nullable(),
  basis: z.enum(["service_median", "x402_floor"]),
  evidence: z.array(z.string()),
});

export const MetadataSchema = z.object({
  url: z.string(),
  service: z.string(),
  service_id: z.string(),
  price_usdc: usdcDecimal().describe(
    "exact decimal of at most 6 places; null when no listing or challenge quoted a price (never an empty string; decision 0016)",
  ),
  currency: z.string(),
  uptime_1h_pct: percent().int().nullable(),
  avg_latency_ms: z.number().int().nullable(),
  is_active: z.boolean(),
  proxy_markup: ProxyMarkupSchema.optional().describe("present only when warnings include proxy_markup"),
  wildcard_402_detected: z.boolean(),
  wildcard_402_checked_at: dateTime().nullable(),
  spa_fallback_detected: z.boolean(),
  spa_fallback_checked_at: dateTime().nullable(),
  effective_count_basis: EffectiveCountBasis,
  settled_calls_30d: z
    .number()
    .int()
    .nullable()
    .describe(
      "settlements to this listing the chain shows over 30 days (forensics' evidence.settlements says how attributed); null when its payTo is not indexed",
    ),
  distinct_payers_30d: z.number().int().nullable().describe("distinct wallets among them; null when not indexed"),
  matched: z
    .object({
      url: z.string().describe("the listing's catalogued address"),
      method: z.string(),
      by: z.enum(["exact", "normalized", "route_template"]),
    })
    .nullable()
    .describe(
      "the listing the asked URL reached (docs/signals.md 'How a URL is matched'): its very address (scheme and host case and a default port aside), the same address with a trailing slash or a query it does not name, or a route template; null when no listing matched",
    ),
});

export const EvidenceSchema = z.object({
  probes_1h: z.number().int(),
  healthy_1h: z.number().int(),
  errors_30m: z.number().int(),
  price_amount_usdc: usdcDecimal(),
  service_age_hours: z.number().nullable(),
  proxy_markup: z.union([ProxyMarkupSchema, z.object({ detected: z.literal(false) })]),
  wildcard_402_detected: z.boolean(),
});

const TermCheckSchema = z.object({
  value: z.string().nullable().describe("the term in the agent's quote"),
  catalog: z.string().nullable().describe("the term the catalog lists; null when it lists none"),
  observed: z.array(z.string()).describe("distinct values the prober's challenges showed in the last 7 days"),
  matches_catalog: z.boolean().nullable().describe("null: nothing to compare with"),
  matches_observed: z.boolean().nullable().describe("null: nothing to compare with"),
});

export const QuoteCheckSchema = z.object({
  requirement_index: z.number().int().describe("the `accepts` entry checked: the one an agent would sign for this listing"),
  requirement_digest: z.string().describe("sha256 (base64url) of that entry's canonical terms: what `signature` binds (docs/verdicts.md)"),
  terms: z.object({
    pay_to: TermCheckSchema,
    asset: TermCheckSchema,
    network: TermCheckSchema,
    amount: TermCheckSchema.describe("atomic units of the asset"),
    resource_url: TermCheckSchema,
    scheme: TermCheckSchema,
  }),
  warnings: z
    .array(ReasonCodeSchema)
    .describe("the codes this quote adds to the verdict (its reason_codes; mostly additions, so most are absent from its warnings)"),
});

/** Present only when the request carried paymentRequired. */
const quoteField = () => QuoteCheckSchema.optional().describe("present only when the request carried paymentRequired");
/** On every verdict: docs/verdicts.md says what it signs and how to verify it offline. */
const signatureField = () =>
  z
    .string()
    .regex(/^[\w-]+\.[\w-]+\.[\w-]+$/)
    .describe(
      "compact JWS (EdDSA, typ lookout-verdict+jwt, kid in /.well-known/jwks.json) over url, method, requirement_digest, view, ok, recommended_action, warnings, reason_codes, risk_score and observed_at; expires 5 minutes after observed_at",
    );

/** `warnings` speaks the spec's enumeration only; reason_codes holds every code, and ok, risk and action come from it (decision 0045). */
const verdictFields = (warning: typeof WarningCodeSchema | typeof PreflightWarningCodeSchema) => ({
  ok: z.boolean().describe("true only when no critical code fires (reason_codes)"),
  warnings: z.array(warning).describe("the spec's codes (/spec 2.1) among reason_codes, in their order"),
  risk_score: z.number().min(0).max(1),
  confidence: z.number().min(0).max(1).describe("below 0.4 the verdict is a hint only"),
  recommended_action: RecommendedActionSchema,
  reason_codes: z
    .array(ReasonCodeSchema)
    .describe("every code that fired, the spec's and this service's additions (docs/signals.md); ok, risk_score and recommended_action come from these"),
});

export const PreflightReportSchema = z
  .object({
    ...verdictFields(PreflightWarningCodeSchema),
    metadata: MetadataSchema,
    observed_at: dateTime(),
    evidence: EvidenceSchema,
    delivery: DeliverySchema,
    quote: quoteField(),
  })
  .describe("a preflight report as the service builds it; the routes answer it signed (SignedPreflightReportSchema)");

export const BatchElementSchema = z
  .object({
    url: z.string().describe("the input URL"),
    ...verdictFields(PreflightWarningCodeSchema),
    metadata: MetadataSchema.extend({ established: z.boolean(), has_free_trial: z.boolean() }),
    evidence: EvidenceSchema.omit({ proxy_markup: true, wildcard_402_detected: true }),
    delivery: DeliverySchema,
    quote: quoteField(),
  })
  .describe("a batch element as the service builds it; the route answers it signed");

export const BatchEnvelopeSchema = z
  .object({
    results: z.array(BatchElementSchema).describe("one per deduplicated input URL, in input order"),
    summary: z.object({
      total: z.number().int(),
      ok: z.number().int(),
      blocked: z.number().int(),
      by_recommended_action: z.record(z.string(), z.number().int()),
    }),
    observed_at: dateTime(),
    paid_amount: z.literal("0.025"),
    effective_price_per_url: z
      .string()
      .regex(DECIMAL_6)
      .describe("paid_amount divided by the deduplicated URL count: exact decimal of at most 6 places, rounded down"),
  })
  .describe("a batch envelope as the service builds it; the route answers it with signed elements");

const nInt = () => z.number().int().nullable();

/** One probe vantage's view of the endpoint (decision 0048): raw probes are kept 3 hours, so its counts cover those. */
export const VantageViewSchema = z.object({
  name: z.string().describe("the prober's PROBE_VANTAGE"),
  probes_3h: z.number().int(),
  healthy_3h: z.number().int(),
  uptime_3h_pct: percent().int().nullable(),
  uptime_1h_pct: percent().int().nullable(),
  last_probe_at: dateTime().nullable(),
  quote: z
    .object({ pay_to: z.string().nullable(), amount: z.string(), asset: z.string().nullable(), network: z.string() })
    .nullable()
    .describe("the newest challenge terms this vantage read in 7 days; null when none"),
});

export const ForensicsReportSchema = z
  .object({
    ...verdictFields(WarningCodeSchema),
    metadata: MetadataSchema,
    observed_at: dateTime(),
    decoy_probability: z.number().min(0).max(1),
    vantages: z
      .array(VantageViewSchema)
      .describe("per probe vantage (decision 0048), by name; one entry ('default') for a one-vantage deployment; empty for an uncatalogued URL"),
    uptime: z
      .object({
        probes_7d: z.number().int(),
        healthy_7d: z.number().int(),
        errors_7d: z.number().int(),
        uptime_7d_pct: percent().int().nullable(),
        uptime_1h_pct: percent().int().nullable(),
        avg_latency_1h_ms: nInt(),
        hourly: z
          .array(z.object({ bucket: dateTime(), probes: z.number().int(), healthy: z.number().int(), avg_latency_ms: nInt() }))
          .describe("most recent first, 168 buckets; empty for an uncatalogued URL"),
      })
      .describe(
        "the prober's 7-day monitoring history; an uncatalogued URL has none (zero counts, null percentages, no buckets): its live probe is in evidence.probes_1h",
      ),
    latency: z.object({ p50_ms: nInt(), p90_ms: nInt(), p99_ms: nInt(), max_ms: nInt() }),
    status_codes: z.record(z.string(), z.number().int()).describe("HTTP status (or network_error) to count over 7 days"),
    concentration: z.object({
      group_size: z.number().int(),
      raw_group_size: z.number().int(),
      effective_group_size: z.number().int(),
      catalog_total: z.number().int(),
      raw_catalog_total: z.number().int(),
      effective_catalog_total: z.number().int(),
      concentration_pct: percent().nullable(),
      wildcard_402_detected: z.boolean(),
      spa_fallback_detected: z.boolean(),
      effective_count_basis: EffectiveCountBasis,
      group_median_price_usdc: usdcNumber(),
      group_p90_price_usdc: usdcNumber(),
      price_ratio_to_median: z.number().nullable(),
    }),
    evidence: z.object({
      probes_1h: z.number().int(),
      healthy_1h: z.number().int(),
      probes_7d: z.number().int(),
      healthy_7d: z.number().int(),
      errors_30m: z.number().int(),
      price_amount_usdc: usdcDecimal(),
      service_age_hours: z.number().nullable(),
      concentration_pct: percent().nullable(),
      raw_concentration_group_size: nInt(),
      effective_concentration_group_size: nInt(),
      wildcard_402_detected: z.boolean(),
      decoy_probability: z.number().min(0).max(1),
      settlements: SettlementsSchema.nullable(),
    }),
    delivery: ForensicsDeliverySchema,
    quote: quoteField(),
  })
  .describe("a forensics report as the service builds it; the route answers it signed");

/** The answers as the routes send them: each verdict carries its signature (docs/verdicts.md). */
export const SignedPreflightReportSchema = PreflightReportSchema.extend({ signature: signatureField() });
export const SignedBatchElementSchema = BatchElementSchema.extend({ signature: signatureField() });
export const SignedBatchEnvelopeSchema = BatchEnvelopeSchema.extend({
  results: z.array(SignedBatchElementSchema).describe("one per deduplicated input URL, in input order"),
});
export const SignedForensicsReportSchema = ForensicsReportSchema.extend({ signature: signatureField() });

/** Unsigned: what the report builders make. */
export type PreflightReport = z.infer<typeof PreflightReportSchema>;
export type ForensicsReport = z.infer<typeof ForensicsReportSchema>;
export type BatchElement = z.infer<typeof BatchElementSchema>;
export type BatchEnvelope = z.infer<typeof BatchEnvelopeSchema>;
export type SignedPreflightReport = z.infer<typeof SignedPreflightReportSchema>;
export type SignedBatchEnvelope = z.infer<typeof SignedBatchEnvelopeSchema>;
export type SignedForensicsReport = z.infer<typeof SignedForensicsReportSchema>;
export type QuoteCheckAnswer = z.infer<typeof QuoteCheckSchema>;
