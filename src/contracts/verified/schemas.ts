import { z } from "@hono/zod-openapi";
import { dateTime } from "../common.js";
import { CERTIFICATE, CRITERION_IDS } from "./limits.js";
import { scopeProblem } from "./scope.js";

// Control, format, private-use and unassigned code points, and line or paragraph separators:
// the name is shown on a public page and inside an SVG badge, so it must print as one line.
const UNPRINTABLE = /[\p{C}\p{Zl}\p{Zp}]/u;

export const CertificateBody = z.object({
  url: z
    .string({ error: "url must be a string" })
    .max(2048, "url must be at most 2048 characters")
    .superRefine((v, ctx) => {
      const problem = scopeProblem(v);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .describe(
      "an endpoint URL, or a pattern: an origin (https://api.example.com) or an origin and path prefix ending in * (https://api.example.com/v1/*), covering every active listing under it",
    ),
  name: z
    .string({ error: "name must be a string" })
    .refine((v) => [...v].length >= 1 && [...v].length <= CERTIFICATE.nameMaxChars, `name must be 1 to ${CERTIFICATE.nameMaxChars} characters`)
    .refine((v) => !UNPRINTABLE.test(v), "name must contain printable characters only (no control characters or line breaks)")
    .refine((v) => v.trim().length > 0, "name must not be blank")
    .describe(`the name shown on the badge and the public page; 1 to ${CERTIFICATE.nameMaxChars} printable characters`),
});

const Observed = z.union([z.number(), z.string()]).nullable();

export const CriterionSchema = z
  .object({
    id: z.enum(CRITERION_IDS),
    description: z.string(),
    required: z.string(),
    met: z.boolean(),
    observed: Observed.describe("the worst value over the covered listings"),
    failing: z
      .array(z.object({ url: z.string(), method: z.string(), observed: Observed }))
      .describe(`listings failing it, at most ${CERTIFICATE.maxFailingReported}`),
    failing_count: z.number().int(),
  })
  .openapi("VerificationCriterion");

export const CertificateSchema = z
  .object({
    certId: z.string(),
    verified: z.boolean(),
    tier: z.enum(["verified", "not_verified"]),
    url: z.string().describe("the endpoint or pattern certified (patterns end in *)"),
    name: z.string(),
    badgeUrl: z.string().describe("SVG badge showing the live state"),
    pageUrl: z.string().describe("public HTML page with the evidence behind each criterion"),
    jwksUrl: z.string().describe("the public keys that verify `jws`"),
    issuedAt: dateTime(),
    validUntil: dateTime().describe("30 days after issue"),
    listings_covered: z.number().int(),
    criteria: z.array(CriterionSchema),
    jws: z.string().describe("the certificate as a compact Ed25519 (EdDSA) JWS; verify it with the JWKS"),
  })
  .openapi("Certificate");

export const CertificateStatusSchema = z
  .object({
    certId: z.string(),
    name: z.string(),
    url: z.string(),
    tier: z.enum(["verified", "not_verified"]),
    state: z.enum(["verified", "lapsed"]).describe("live: lapsed once expired or once a covered listing stops meeting a criterion"),
    lapsed_because: z.array(z.string()),
    issuedAt: dateTime(),
    validUntil: dateTime(),
    checkedAt: dateTime(),
    badgeUrl: z.string(),
    pageUrl: z.string(),
    jwksUrl: z.string(),
    jws: z.string().nullable(),
    criteria: z.array(CriterionSchema).describe("recomputed now from the current evidence"),
  })
  .openapi("CertificateStatus");

export const CertIdParams = z.object({ certId: z.string().describe("the certId returned at issue") });

export type CriterionReport = z.infer<typeof CriterionSchema>;
