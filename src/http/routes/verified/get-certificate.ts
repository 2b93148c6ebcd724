import { getCertificateContract } from "@x402-lookout/contracts/verified/routes";
import { ApiError } from "../../errors.js";
import { defineRoute } from "../../registry.js";
import { CERTIFICATE_EXAMPLE, CRITERIA_EXAMPLE } from "@x402-lookout/contracts/verified/examples";

const { certId, name, url, payTo, host, provenBy, tier, issuedAt, validUntil, badgeUrl, pageUrl, jwksUrl, jws } = CERTIFICATE_EXAMPLE;

export const getCertificateRoute = defineRoute({
  ...getCertificateContract,
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
  handler: async ({ params }, { services }) => {
    const v = await services.certificates.view(params.certId);
    if (!v) throw new ApiError(404, "certificate_not_found", "no certificate with this id");
    return {
      certId: v.certId,
      name: v.name,
      url: v.url,
      payTo: v.payTo,
      host: v.host,
      provenBy: v.provenBy,
      tier: v.tier,
      state: v.state,
      lapsed_because: v.lapsedBecause,
      issuedAt: v.issuedAt.toISOString(),
      validUntil: v.validUntil.toISOString(),
      checkedAt: v.checkedAt.toISOString(),
      badgeUrl: v.badgeUrl,
      pageUrl: v.pageUrl,
      jwksUrl: v.jwksUrl,
      jws: v.jws,
      criteria: v.criteria,
    };
  },
});
