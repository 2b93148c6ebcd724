import type { CreatedWatch, WarningCode } from "../../../services/index.js";
import { createWatchContract } from "@x402-lookout/contracts/watch/create-watch";
import { badRequest } from "../../errors.js";
import { defineRoute } from "../../registry.js";
import { DELIVERY_FORMAT } from "@x402-lookout/contracts/watch/delivery-format";

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
  check: ({ body }, services) => {
    const problem = services.watch.urlProblem(body.webhookUrl);
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
