import { createCreditContract } from "@x402-lookout/contracts/credits/create-credit";
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
