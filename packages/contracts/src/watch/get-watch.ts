import { defineContract } from "../contract.js";
import { EXAMPLE_WATCH_ID } from "./create-watch.js";
import { SECRET_HEADERS, WatchIdParams, WatchStatusSchema } from "./schemas.js";

/** Status and unsubscribe: free, addressed by id, authorised by the secret shown at creation. */
export const withSecret = {
  params: WatchIdParams,
  headers: SECRET_HEADERS,
  bearerSecret: "the secret returned when the watch was created",
  response: WatchStatusSchema,
  errors: [
    { status: 404 as const, when: "the id is malformed or unknown, or the secret is wrong or missing (identical bodies)" },
    { status: 503 as const, when: "the database is unavailable" },
  ],
};

export const STATUS_EXAMPLE = {
  watchId: EXAMPLE_WATCH_ID,
  state: "active" as const,
  url: "https://tickerwire.example/prices/funding-rates",
  webhookUrl: "https://agent.example/hooks/lookout",
  signals: ["dead", "zombie", "decoy_price_extreme"],
  createdAt: "2026-11-20T12:00:00.000Z",
  expiresAt: "2026-12-20T12:00:00.000Z",
  unsubscribedAt: null,
  alertsRemaining: 98,
  signalStates: [
    {
      signal: "dead",
      state: "cleared" as const,
      since: "2026-11-21T09:40:00.000Z",
      evidence: { probes_30m: 3, healthy_30m: 3, fail_streak: 0, min_failed_in_a_row: 3, probes_1h: 6, last_probe_at: "2026-11-21T09:38:12.000Z" },
    },
    {
      signal: "zombie",
      state: "cleared" as const,
      since: "2026-11-20T12:00:02.000Z",
      evidence: {
        service_endpoints: 2,
        failed_endpoints: 0,
        healthy_endpoints: 2,
        min_probes_per_endpoint: 3,
        listed: true,
        last_probe_at: "2026-11-20T11:58:40.000Z",
      },
    },
    {
      signal: "decoy_price_extreme",
      state: "cleared" as const,
      since: "2026-11-20T12:00:02.000Z",
      evidence: { price_usdc: 0.001, threshold_usdc: 1000, last_probe_at: "2026-11-20T11:58:40.000Z" },
    },
  ],
  listing: { listed: true, since: "2026-11-20T12:00:02.000Z", evidence: { listed: true, last_seen_at: "2026-11-21T09:35:00.000Z", left_at: null } },
  deliveries: [
    {
      webhookId: "5e1f0a3b-7c2d-4e8f-9a6b-1c3d5e7f9a0b",
      signal: "dead",
      state: "cleared" as const,
      status: "delivered" as const,
      attempts: 1,
      lastResponseCode: 204,
      lastError: null,
      createdAt: "2026-11-21T09:40:00.000Z",
      nextAttemptAt: null,
      deliveredAt: "2026-11-21T09:40:00.000Z",
    },
    {
      webhookId: "0a9b8c7d-6e5f-4a3b-2c1d-0e9f8a7b6c5d",
      signal: "dead",
      state: "fired" as const,
      status: "delivered" as const,
      attempts: 2,
      lastResponseCode: 200,
      lastError: null,
      createdAt: "2026-11-21T09:20:00.000Z",
      nextAttemptAt: null,
      deliveredAt: "2026-11-21T09:20:06.000Z",
    },
  ],
};

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
  examples: { response: STATUS_EXAMPLE },
});
