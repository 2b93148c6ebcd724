import { defineContract } from "../contract.js";
import { CERTIFICATE_EXAMPLE, CRITERIA_EXAMPLE } from "./create-certificate.js";
import { CertIdParams, CertificateStatusSchema } from "./schemas.js";

const { certId, name, url, payTo, host, provenBy, tier, issuedAt, validUntil, badgeUrl, pageUrl, jwksUrl, jws } = CERTIFICATE_EXAMPLE;

export const getCertificateContract = defineContract({
  id: "verified-status",
  method: "get",
  path: "/api/v1/verified/:certId",
  price: null,
  title: "Certificate status",
  summary: "The live state of a certificate (verified or lapsed, and why); free.",
  description:
    "Recomputes the criteria from the current evidence of the listings the certificate covered. The state is lapsed after validUntil or once a covered listing stops meeting a criterion or leaves the catalog. The same state is on the public page and the badge.",
  params: CertIdParams,
  response: CertificateStatusSchema,
  errors: [
    { status: 404, when: "no certificate with this id (or its payment never settled)" },
    { status: 503, when: "the database is unavailable" },
  ],
  examples: {
    response: {
      certId,
      name,
      url,
      payTo,
      host,
      provenBy,
      tier,
      state: "verified",
      lapsed_because: [],
      issuedAt,
      validUntil,
      checkedAt: "2026-11-21T08:00:00.000Z",
      badgeUrl,
      pageUrl,
      jwksUrl,
      jws,
      criteria: CRITERIA_EXAMPLE,
    },
  },
});
