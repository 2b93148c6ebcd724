import { getCreditContract } from "@x402-lookout/contracts/credits/routes";
import { ApiError } from "../../errors.js";
import { defineRoute } from "../../registry.js";
import { creditUsage } from "../../../services/index.js";

export const getCreditRoute = defineRoute({
  ...getCreditContract,
  examples: {
    response: {
      creditId: "6f1c1f8e-2f7a-4d55-9a51-3f1f0b7f6a10",
      balance: 998,
      initialBalance: 1000,
      used: 2,
      expired: false,
      paidAmount: "0.5",
      payerAddress: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      createdAt: "2026-11-20T12:00:00.000Z",
      expiresAt: "2027-02-18T12:00:00.000Z",
      paymentTx: "0x5e3c0b6d0a7f1f1c3f8e1b2a9d4c6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b2c3d",
      paymentNetwork: "eip155:84532",
      usage: {
        header: "X-Credit-Id: 6f1c1f8e-2f7a-4d55-9a51-3f1f0b7f6a10",
        statusUrl: "https://lookout.example/api/v1/credits/6f1c1f8e-2f7a-4d55-9a51-3f1f0b7f6a10",
      },
    },
  },
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
