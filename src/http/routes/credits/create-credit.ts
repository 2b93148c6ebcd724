import { createCreditContract } from "@x402-lookout/contracts/credits/routes";
import { ApiError } from "../../errors.js";
import { defineRoute, type HandlerContext } from "../../registry.js";
import { creditUsage, type Credit } from "../../../services/index.js";

export const bundleBody = (c: Credit, base: string) => ({
  creditId: c.creditId,
  balance: c.balance,
  initialBalance: c.initialBalance,
  paidAmount: c.paidAmount,
  payerAddress: c.payerAddress,
  createdAt: c.createdAt.toISOString(),
  expiresAt: c.expiresAt.toISOString(),
  usage: creditUsage(c.creditId, base),
});

export const createCreditRoute = defineRoute({
  ...createCreditContract,
  examples: {
    request: {},
    response: {
      creditId: "6f1c1f8e-2f7a-4d55-9a51-3f1f0b7f6a10",
      balance: 1000,
      initialBalance: 1000,
      paidAmount: "0.5",
      payerAddress: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      createdAt: "2026-11-20T12:00:00.000Z",
      expiresAt: "2027-02-18T12:00:00.000Z",
      usage: {
        header: "X-Credit-Id: 6f1c1f8e-2f7a-4d55-9a51-3f1f0b7f6a10",
        statusUrl: "https://lookout.example/api/v1/credits/6f1c1f8e-2f7a-4d55-9a51-3f1f0b7f6a10",
      },
    },
  },
  handler: async (_input, ctx) => {
    const payment = paidBy(ctx);
    const credit = await ctx.services.credits.mint({
      paymentId: payment.paymentId,
      payer: payment.payer,
      network: payment.network,
      amountAtomic: payment.amountAtomic,
    });
    return bundleBody(credit, ctx.publicBaseUrl);
  },
  // The bundle id is a bearer token and the payment is public on chain: only the payer's own
  // payment-identifier gets it back (docs/payments.md).
  onReplay: async (paymentId, ctx) => {
    const credit = paymentId ? await ctx.services.credits.findByPayment(paymentId) : undefined;
    throw new ApiError(
      409,
      "credit_already_minted",
      credit
        ? "this payment already minted a credit bundle; it is returned in `credit`"
        : "this payment already minted a credit bundle; it is returned only to a retry that carries the original payment-identifier",
      { credit: credit ? bundleBody(credit, ctx.publicBaseUrl) : null },
    );
  },
});

function paidBy(ctx: HandlerContext) {
  const p = ctx.payment;
  if (p?.kind !== "x402" || !p.paymentId) throw new Error("credits can only be bought with an x402 payment");
  return { ...p, paymentId: p.paymentId };
}
