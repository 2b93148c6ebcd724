import { z } from "@hono/zod-openapi";
import { viewCertificate } from "../../../services/certificates/live-state.js";
import { ApiError } from "../../errors.js";
import { defineRoute } from "../../registry.js";
import { CERTIFICATE_EXAMPLE, CRITERIA_EXAMPLE } from "./examples.js";
import { CertificateStatusSchema } from "./schemas.js";

const { certId, name, url, tier, issuedAt, validUntil, badgeUrl, pageUrl, jwksUrl, jws } = CERTIFICATE_EXAMPLE;

export const getCertificateRoute = defineRoute({
  id: "verified-status",
  method: "get",
  path: "/api/v1/verified/:certId",
  price: null,
  title: "Certificate status",
  summary: "The live state of a certificate (verified or lapsed, and why); free.",
  description:
    "Recomputes the criteria from the current evidence of the listings the certificate covered. The state is lapsed after validUntil or once a covered listing stops meeting a criterion or leaves the catalog. The same state is on the public page and the badge.",
  params: z.object({ certId: z.string().describe("the certId returned at issue") }),
  response: CertificateStatusSchema,
  examples: {
    response: { certId, name, url, tier, state: "verified", lapsed_because: [], issuedAt, validUntil, checkedAt: "2026-11-21T08:00:00.000Z", badgeUrl, pageUrl, jwksUrl, jws, criteria: CRITERIA_EXAMPLE },
  },
  errors: [
    { status: 404, when: "no certificate with this id (or its payment never settled)" },
    { status: 503, when: "the database is unavailable" },
  ],
  handler: async ({ params }, { app }) => {
    const v = await viewCertificate(app, params.certId);
    if (!v) throw new ApiError(404, "certificate_not_found", "no certificate with this id");
    return {
      certId: v.certId, name: v.name, url: v.url, tier: v.tier, state: v.state, lapsed_because: v.lapsedBecause,
      issuedAt: v.issuedAt.toISOString(), validUntil: v.validUntil.toISOString(), checkedAt: v.checkedAt.toISOString(),
      badgeUrl: v.badgeUrl, pageUrl: v.pageUrl, jwksUrl: v.jwksUrl, jws: v.jws, criteria: v.criteria,
    };
  },
});
