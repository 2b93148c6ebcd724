import { issueCertificate } from "../../../services/certificates/issue.js";
import { createCertificateContract } from "../../contracts/verified.js";
import { ApiError } from "../../errors.js";
import { defineRoute } from "../../registry.js";
import { CERTIFICATE_EXAMPLE } from "./examples.js";

export const createCertificateRoute = defineRoute({
  ...createCertificateContract,
  examples: { request: { url: "https://weather.example/*", name: "Skycast Weather" }, response: CERTIFICATE_EXAMPLE },
  handler: async ({ body }, ctx) => {
    const result = await issueCertificate(ctx.app, { url: body.url, name: body.name, paymentId: ctx.payment?.paymentId, payer: ctx.payment?.payer ?? null });
    if (result.verified) return result.certificate;
    throw new ApiError(
      422,
      "not_verified",
      `${result.url} does not meet the verification criteria: ${result.failed.map((c) => c.id).join(", ")}; nothing was charged`,
      { verified: false, tier: "not_verified", url: result.url, name: result.name, failed_criteria: result.failed, criteria: result.criteria },
    );
  },
});
