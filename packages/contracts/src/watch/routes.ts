import { defineContract } from "../contract.js";
import { CreateWatchBody, SECRET_HEADERS, WatchCreatedSchema, WatchIdParams, WatchStatusSchema } from "./schemas.js";

/** Status and unsubscribe: free, addressed by id, authorised by the secret shown at creation. */
const withSecret = {
  params: WatchIdParams,
  headers: SECRET_HEADERS,
  bearerSecret: "the secret returned when the watch was created",
  response: WatchStatusSchema,
  errors: [
    { status: 404 as const, when: "the id is malformed or unknown, or the secret is wrong or missing (identical bodies)" },
    { status: 503 as const, when: "the database is unavailable" },
  ],
};

export const createWatchContract = defineContract({
  id: "watch",
  method: "post",
  path: "/api/v1/watch",
  price: "0.01",
  product: "Watch",
  title: "Watch an endpoint",
  summary: "Subscribes a webhook to signal changes of one endpoint: 30 days, 100 signed alerts, one 0.01 USDC payment.",
  description:
    "After every probe cycle the alerter compares each subscribed signal (any preflight or forensics warning code; default dead, zombie, decoy_price_extreme) with its last known state and sends one alert per change, fired or cleared, never one per probe. A signal that already fires when the watch starts is alerted once.\n\nAlerts are signed with HMAC-SHA256 keyed with the subscription secret, in the Standard Webhooks format (webhook-id, webhook-timestamp, webhook-signature): verify them with the secret (docs/webhooks.md) or with `new Webhook(signingSecret)` of the standardwebhooks library. They are retried with backoff for about 43 minutes and kept in a durable outbox, so a restart loses none.\n\nThe secret and signingSecret are shown once, here. The webhookUrl must be https without userinfo and must not resolve to a private, loopback, link-local, metadata or otherwise non-public address; this is checked now and again at every connection.",
  body: CreateWatchBody,
  response: WatchCreatedSchema,
  errors: [
    {
      status: 400,
      when: "malformed body, invalid or private-network webhookUrl (also when its name resolves to one), unknown signal, or more than 20 signals; nothing is settled",
    },
    { status: 503, when: "the database or the DNS check is unavailable; nothing was settled" },
  ],
});

export const getWatchContract = defineContract({
  id: "watch-status",
  method: "get",
  path: "/api/v1/watch/:id",
  price: null,
  title: "Watch status",
  summary: "State, quota, current signal states and the last 10 deliveries of a watch; free with its secret.",
  description:
    "Present the secret returned at creation as `Authorization: Bearer <secret>`, `X-Watch-Secret: <secret>` or `X-X402Station-Secret: <secret>` (as the x402station MCP adapter sends it). A malformed id, an unknown id and a wrong or missing secret answer the same 404, so none can be told apart; the secret is compared in constant time.",
  ...withSecret,
});

export const deleteWatchContract = defineContract({
  id: "watch-unsubscribe",
  method: "delete",
  path: "/api/v1/watch/:id",
  price: null,
  title: "Unsubscribe a watch",
  summary: "Stops a watch for good and keeps its history; free with its secret.",
  description:
    "Alerts still waiting are closed as failed and nothing more is sent. The answer is the watch's status, now `unsubscribed`; repeating the call answers the same. Authentication and 404 behave as for the status route.",
  ...withSecret,
});
