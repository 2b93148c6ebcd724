import { z } from "@hono/zod-openapi";
import { ApiError } from "../../errors.js";
import { defineRoute, type HandlerContext } from "../../registry.js";
import type { Credit } from "../../../services/credits/credits-service.js";
import { CreditBundleSchema } from "./schemas.js";

export const bundleBody = (c: Credit, base: string) => ({
  creditId: c.creditId,
  balance: c.balance,
  initialBalance: c.initialBalance,
  paidAmount: c.paidAmount,
  payerAddress: c.payerAddress,
  createdAt: c.createdAt.toISOString(),
  expiresAt: c.expiresAt.toISOString(),
  usage: { header: `X-Credit-Id: ${c.creditId}`, statusUrl: `${base}/api/v1/credits/${c.creditId}` },
});

export const createCreditRoute = defineRoute({
  id: "credits",
  method: "post",
  path: "/api/v1/credits",
  price: "0.50",
  product: "Credits",
  title: "Prepaid credit bundle",
  summary: "Buys 1000 preflight calls, valid 90 days, for one 0.50 USDC payment.",
  description:
    "Pay once and send the returned creditId as the X-Credit-Id header on POST /api/v1/preflight instead of paying each call. The creditId is a bearer token: it is shown once, here, and cannot be retrieved later.\n\nOne call is spent per answered preflight; a failed answer gives its call back. An exhausted or expired bundle falls through to the normal per-call payment. Repeating the same payment answers 409 with the bundle it already bought.",
  body: z.object({}).passthrough(),
  bodyOptional: true,
  response: CreditBundleSchema,
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
      usage: { header: "X-Credit-Id: 6f1c1f8e-2f7a-4d55-9a51-3f1f0b7f6a10", statusUrl: "https://lookout.example/api/v1/credits/6f1c1f8e-2f7a-4d55-9a51-3f1f0b7f6a10" },
    },
  },
  errors: [
    { status: 400, when: "the body is not a JSON object" },
    { status: 409, when: "this payment already minted a bundle; the body's `credit` holds it" },
    { status: 503, when: "the database is unavailable; nothing was settled" },
  ],
  handler: async (_input, ctx) => {
    const payment = paidBy(ctx);
    const credit = await ctx.app.services.credits.mint({ paymentId: payment.paymentId, payer: payment.payer, network: payment.network, amountAtomic: payment.amountAtomic });
    return bundleBody(credit, ctx.app.config.publicBaseUrl);
  },
  onReplay: async (paymentId, ctx) => {
    const credit = await ctx.app.services.credits.findByPayment(paymentId);
    throw new ApiError(409, "credit_already_minted", "this payment already minted a credit bundle; it is returned in `credit`", {
      credit: credit ? bundleBody(credit, ctx.app.config.publicBaseUrl) : null,
    });
  },
});

function paidBy(ctx: HandlerContext) {
  const p = ctx.payment;
  if (p?.kind !== "x402" || !p.paymentId) throw new Error("credits can only be bought with an x402 payment");
  return { ...p, paymentId: p.paymentId };
}
