import type { CreatedWatch, WarningCode } from "../../../services/index.js";
import { createWatchContract } from "@x402-lookout/contracts/watch/routes";
import { badRequest } from "../../errors.js";
import { defineRoute } from "../../registry.js";
import { DELIVERY_FORMAT } from "@x402-lookout/contracts/watch/delivery-format";
import { CREATED_EXAMPLE } from "@x402-lookout/contracts/watch/examples";

const createdBody = (w: CreatedWatch, base: string) => ({
  watchId: w.watchId,
  secret: w.secret,
  signingSecret: w.signingSecret,
  url: w.url,
  webhookUrl: w.webhookUrl,
  signals: w.signals,
  createdAt: w.createdAt.toISOString(),
  expiresAt: w.expiresAt.toISOString(),
  alertsRemaining: w.alertsRemaining,
  statusUrl: `${base}/api/v1/watch/${w.watchId}`,
  unsubscribeUrl: `${base}/api/v1/watch/${w.watchId}`,
  delivery: DELIVERY_FORMAT,
});

export const createWatchRoute = defineRoute({
  ...createWatchContract,
  examples: {
    request: {
      url: "https://tickerwire.example/prices/funding-rates",
      webhookUrl: "https://agent.example/hooks/lookout",
      signals: ["dead", "zombie", "decoy_price_extreme"],
    },
    response: CREATED_EXAMPLE,
  },
  check: ({ body }, services) => {
    const problem = services.watch.literalProblem(body.webhookUrl);
    if (problem) throw badRequest(`webhookUrl: ${problem}`);
  },
  handler: async ({ body }, ctx) => {
    const watch = await ctx.services.watch.create({
      url: body.url,
      webhookUrl: body.webhookUrl,
      signals: body.signals as WarningCode[] | undefined,
      paymentId: ctx.payment?.paymentId,
      payer: ctx.payment?.payer ?? null,
    });
    return createdBody(watch, ctx.publicBaseUrl);
  },
});
