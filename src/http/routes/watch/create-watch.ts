import { createWatch, type CreatedWatch } from "../../../services/watch/create-watch.js";
import type { WarningCode } from "../../../services/signals/constants.js";
import { defineRoute } from "../../registry.js";
import { DELIVERY_FORMAT } from "./delivery-format.js";
import { CREATED_EXAMPLE } from "./examples.js";
import { CreateWatchBody, WatchCreatedSchema } from "./schemas.js";

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
  id: "watch",
  method: "post",
  path: "/api/v1/watch",
  price: "0.01",
  product: "Watch",
  title: "Watch an endpoint",
  summary: "Subscribes a webhook to signal changes of one endpoint: 30 days, 100 signed alerts, one 0.01 USDC payment.",
  description:
    "After every probe cycle the alerter compares each subscribed signal (any preflight or forensics warning code; default dead, zombie, decoy_price_extreme) with its last known state and sends one alert per change, fired or cleared, never one per probe. A signal that already fires when the watch starts is alerted once.\n\nAlerts are signed with Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature): verify them with `new Webhook(signingSecret)` of the standardwebhooks library. They are retried with backoff for about 43 minutes and kept in a durable outbox, so a restart loses none.\n\nThe secret and signingSecret are shown once, here. The webhookUrl must be https without userinfo and must not resolve to a private, loopback, link-local, metadata or otherwise non-public address; this is checked now and again at every connection.",
  body: CreateWatchBody,
  response: WatchCreatedSchema,
  examples: {
    request: { url: "https://tickerwire.example/prices/funding-rates", webhookUrl: "https://agent.example/hooks/lookout", signals: ["dead", "zombie", "decoy_price_extreme"] },
    response: CREATED_EXAMPLE,
  },
  errors: [
    { status: 400, when: "malformed body, invalid or private-network webhookUrl (also when its name resolves to one), unknown signal, or more than 20 signals; nothing is settled" },
    { status: 503, when: "the database or the DNS check is unavailable; nothing was settled" },
  ],
  handler: async ({ body }, ctx) => {
    const watch = await createWatch(
      { db: ctx.app.db.db, clock: ctx.app.clock, rules: { allowPrivate: ctx.app.config.allowPrivateWebhooks } },
      { url: body.url, webhookUrl: body.webhookUrl, signals: body.signals as WarningCode[] | undefined, paymentId: ctx.payment?.paymentId, payer: ctx.payment?.payer ?? null },
    );
    return createdBody(watch, ctx.app.config.publicBaseUrl);
  },
});
