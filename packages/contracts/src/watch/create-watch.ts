import { defineContract } from "../contract.js";
import { DELIVERY_FORMAT } from "./delivery-format.js";
import { DEFAULT_SIGNALS } from "./limits.js";
import { CreateWatchBody, WatchCreatedSchema } from "./schemas.js";

export const EXAMPLE_WATCH_ID = "3b0c5a8e-9f1d-4c2b-8a7e-5d6f4e3c2b1a";
const BASE = "https://lookout.example/api/v1/watch";

export const CREATED_EXAMPLE = {
  watchId: EXAMPLE_WATCH_ID,
  secret: "9f2c4e6a8b0d1f3e5a7c9e1b3d5f7a9c2e4b6d8f0a1c3e5b7d9f1a3c5e7b9d0f",
  signingSecret: "whsec_OWYyYzRlNmE4YjBkMWYzZTVhN2M5ZTFiM2Q1ZjdhOWMyZTRiNmQ4ZjBhMWMzZTViN2Q5ZjFhM2M1ZTdiOWQwZg==",
  url: "https://tickerwire.example/prices/funding-rates",
  webhookUrl: "https://agent.example/hooks/lookout",
  signals: ["dead", "zombie", "decoy_price_extreme"],
  createdAt: "2026-11-20T12:00:00.000Z",
  expiresAt: "2026-12-20T12:00:00.000Z",
  alertsRemaining: 100,
  statusUrl: `${BASE}/${EXAMPLE_WATCH_ID}`,
  unsubscribeUrl: `${BASE}/${EXAMPLE_WATCH_ID}`,
  delivery: DELIVERY_FORMAT,
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
    "After every probe cycle the alerter compares each subscribed signal (any code a verdict's reason_codes can carry: the spec's warnings and the additions of docs/signals.md; default " +
    DEFAULT_SIGNALS.join(", ") +
    ") with its last known state and sends one alert per change, fired or cleared, never one per probe. A signal that already fires when the watch starts is alerted once.\n\nAlerts are signed with HMAC-SHA256 keyed with the subscription secret, in the Standard Webhooks format (webhook-id, webhook-timestamp, webhook-signature): verify them with the secret (docs/webhooks.md) or with `new Webhook(signingSecret)` of the standardwebhooks library. They are retried with backoff for about 43 minutes and kept in a durable outbox, so a restart loses none.\n\nThe secret and signingSecret are shown once, here. The webhookUrl must be https without userinfo and must not resolve to a private, loopback, link-local, metadata or otherwise non-public address; this is checked now and again at every connection.",
  body: CreateWatchBody,
  response: WatchCreatedSchema,
  errors: [
    {
      status: 400,
      when: "malformed body, invalid or private-network webhookUrl (also when its name resolves to one), unknown signal, or more than 20 signals; nothing is settled",
    },
    { status: 503, when: "the database or the DNS check is unavailable; nothing was settled" },
  ],
  examples: {
    request: {
      url: "https://tickerwire.example/prices/funding-rates",
      webhookUrl: "https://agent.example/hooks/lookout",
      signals: ["dead", "zombie", "decoy_price_extreme"],
    },
    response: CREATED_EXAMPLE,
  },
});
