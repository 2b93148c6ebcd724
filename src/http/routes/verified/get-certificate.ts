import { getCertificateContract } from "@x402-lookout/contracts/verified/get-certificate";
import { ApiError } from "../../errors.js";
import { defineRoute } from "../../registry.js";

export const getCertificateRoute = defineRoute({
  ...getCertificateContract,
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
