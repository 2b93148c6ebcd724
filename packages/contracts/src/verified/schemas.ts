import { z } from "zod";
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
    .optional()
    .describe(
      `the name shown on the badge and the page, 1 to ${CERTIFICATE.nameMaxChars} printable characters; default: the catalog's service name. One imitating another provider's service is refused`,
    ),
  proof: z
    .object({
      signature: z
        .string({ error: "proof.signature must be a string" })
        .regex(/^0x[0-9a-fA-F]{130}$/, "proof.signature must be a 65-byte EIP-191 signature: 0x and 130 hex digits")
        .describe("EIP-191 (personal_sign) signature by the payTo"),
      issuedAt: dateTime().describe("as in the signed message; good for 10 minutes"),
    })
    .optional()
    .describe("when the payment does not come from the covered listings' payTo: the payTo's signature of this request (message: docs/certificates.md)"),
});

const Observed = z.union([z.number(), z.string()]).nullable();

export const CriterionSchema = z.object({
  id: z.enum(CRITERION_IDS),
  description: z.string(),
  required: z.string(),
  met: z.boolean(),
  observed: Observed.describe("the worst value over the covered listings"),
  failing: z
    .array(z.object({ url: z.string(), method: z.string(), observed: Observed }))
    .describe(`listings failing it, at most ${CERTIFICATE.maxFailingReported}`),
  failing_count: z.number().int(),
});

export const CertificateSchema = z.object({
  certId: z.string(),
  verified: z.boolean(),
  tier: z.enum(["verified", "not_verified"]),
  url: z.string().describe("the endpoint or pattern certified (patterns end in *)"),
  name: z.string().describe("the requested name, or the catalog's service name of the covered listings"),
  payTo: z.string().describe("the payTo every covered listing is paid to, whose control the request proved (checksummed)"),
  host: z.string().describe("the host of the certified endpoint or pattern"),
  provenBy: z.enum(["payment", "signature"]).describe("payment: paid from the payTo; signature: a proof signed by the payTo"),
  badgeUrl: z.string().describe("SVG badge showing the live state"),
  pageUrl: z.string().describe("public HTML page with the evidence behind each criterion"),
  jwksUrl: z.string().describe("the public keys that verify `jws`"),
  issuedAt: dateTime(),
  validUntil: dateTime().describe("30 days after issue"),
  listings_covered: z.number().int(),
  criteria: z.array(CriterionSchema),
  jws: z.string().describe("the certificate as a compact Ed25519 (EdDSA) JWS; verify it with the JWKS"),
});

export const CertificateStatusSchema = z.object({
  certId: z.string(),
  name: z.string(),
  url: z.string(),
  payTo: z.string().nullable().describe("the proven payTo; null for a certificate issued before proof of control was required (it shows as lapsed)"),
  host: z.string(),
  provenBy: z.enum(["payment", "signature"]).nullable(),
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
});

export const CertIdParams = z.object({ certId: z.string().describe("the certId returned at issue") });

export type CriterionReport = z.infer<typeof CriterionSchema>;
