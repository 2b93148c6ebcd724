import type { z } from "zod";
import { AttributionSchema } from "./attribution.js";
import { AlternativesSchema } from "./catalog/alternatives.js";
import { BlacklistSchema } from "./catalog/decoys.js";
import { WhatsNewSchema } from "./catalog/whats-new.js";
import { ErrorBodySchema, PaymentRequiredSchema } from "./common.js";
import { CreditBundleSchema } from "./credits/create-credit.js";
import { CreditStatusSchema } from "./credits/get-credit.js";
import { DelistDiffSchema, DelistSnapshotSchema } from "./delist/schemas.js";
import * as preflight from "./preflight/schemas.js";
import { CertificateSchema, CertificateStatusSchema, CriterionSchema } from "./verified/schemas.js";
import { WatchCreatedSchema, WatchStatusSchema } from "./watch/schemas.js";

/**
 * The names the OpenAPI document gives shared schemas as components. Kept beside the schemas, not
 * in zod's global registry, so a schema's JSON Schema (MCP tools, /.well-known/x402) stays inline.
 */
export const SCHEMA_NAMES: ReadonlyArray<readonly [z.ZodType, string]> = [
  [preflight.WarningCodeSchema, "WarningCode"],
  [preflight.PreflightWarningCodeSchema, "PreflightWarningCode"],
  [preflight.ReasonCodeSchema, "ReasonCode"],
  [preflight.RecommendedActionSchema, "RecommendedAction"],
  [preflight.ProxyMarkupSchema, "ProxyMarkup"],
  [preflight.MetadataSchema, "Metadata"],
  [preflight.EvidenceSchema, "Evidence"],
  [preflight.QuoteCheckSchema, "QuoteCheck"],
  [preflight.SignedPreflightReportSchema, "PreflightReport"],
  [preflight.SignedBatchElementSchema, "BatchElement"],
  [preflight.SignedBatchEnvelopeSchema, "BatchEnvelope"],
  [preflight.SignedForensicsReportSchema, "ForensicsReport"],
  [AlternativesSchema, "Alternatives"],
  [BlacklistSchema, "Blacklist"],
  [WhatsNewSchema, "WhatsNew"],
  [WatchCreatedSchema, "WatchCreated"],
  [WatchStatusSchema, "WatchStatus"],
  [CriterionSchema, "VerificationCriterion"],
  [CertificateSchema, "Certificate"],
  [CertificateStatusSchema, "CertificateStatus"],
  [DelistSnapshotSchema, "DelistSnapshot"],
  [DelistDiffSchema, "DelistDiff"],
  [CreditBundleSchema, "CreditBundle"],
  [CreditStatusSchema, "CreditStatus"],
  [ErrorBodySchema, "Error"],
  [PaymentRequiredSchema, "PaymentRequired"],
  [AttributionSchema, "Attribution"],
];
