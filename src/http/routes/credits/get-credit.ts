import { getCreditContract } from "@x402-lookout/contracts/credits/get-credit";
import { ApiError } from "../../errors.js";
import { defineRoute } from "../../registry.js";
import { creditUsage } from "../../../services/index.js";

export const getCreditRoute = defineRoute({
  ...getCreditContract,
  handler: async ({ params }, { services, publicBaseUrl }) => {
    const c = await services.credits.get(params.id);
    if (!c) throw new ApiError(404, "credit_not_found", "no credit bundle with this id");
    return {
      creditId: c.creditId,
      balance: c.balance,
      initialBalance: c.initialBalance,
      used: c.initialBalance - c.balance,
      expired: c.expiresAt.getTime() <= services.now().getTime(),
      paidAmount: c.paidAmount,
      payerAddress: c.payerAddress,
      createdAt: c.createdAt.toISOString(),
      expiresAt: c.expiresAt.toISOString(),
      paymentTx: c.paymentTx,
      paymentNetwork: c.paymentNetwork,
      usage: creditUsage(c.creditId, publicBaseUrl),
    };
  },
});
