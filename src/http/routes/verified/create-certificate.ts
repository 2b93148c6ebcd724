import { NotVerified } from "../../../services/errors.js";
import { createCertificateContract } from "@x402-lookout/contracts/verified/create-certificate";
import { defineRoute } from "../../registry.js";

export const createCertificateRoute = defineRoute({
  ...createCertificateContract,
  handler: async ({ body }, ctx) => {
    const result = await ctx.services.certificates.issue({
      url: body.url,
      name: body.name,
      proof: body.proof,
      paymentId: ctx.payment?.paymentId,
      // Only an x402 payer proves control by paying: a credit's buyer says nothing of the payTo.
      payer: ctx.payment?.kind === "x402" ? ctx.payment.payer : null,
    });
    if (result.verified) return result.certificate;
    throw new NotVerified(
      { url: result.url, name: result.name },
      result.failed,
      result.criteria,
      `${result.url} does not meet the verification criteria: ${result.failed.map((c) => c.id).join(", ")}; nothing was charged`,
    );
  },
});
