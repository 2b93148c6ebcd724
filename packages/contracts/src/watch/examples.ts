import { DELIVERY_FORMAT } from "./delivery-format.js";

const ID = "3b0c5a8e-9f1d-4c2b-8a7e-5d6f4e3c2b1a";
const BASE = "https://lookout.example/api/v1/watch";

export const CREATED_EXAMPLE = {
  watchId: ID,
  secret: "9f2c4e6a8b0d1f3e5a7c9e1b3d5f7a9c2e4b6d8f0a1c3e5b7d9f1a3c5e7b9d0f",
  signingSecret: "whsec_OWYyYzRlNmE4YjBkMWYzZTVhN2M5ZTFiM2Q1ZjdhOWMyZTRiNmQ4ZjBhMWMzZTViN2Q5ZjFhM2M1ZTdiOWQwZg==",
  url: "https://tickerwire.example/prices/funding-rates",
  webhookUrl: "https://agent.example/hooks/lookout",
  signals: ["dead", "zombie", "decoy_price_extreme"],
  createdAt: "2026-11-20T12:00:00.000Z",
  expiresAt: "2026-12-20T12:00:00.000Z",
  alertsRemaining: 100,
  statusUrl: `${BASE}/${ID}`,
  unsubscribeUrl: `${BASE}/${ID}`,
  delivery: DELIVERY_FORMAT,
};

export const STATUS_EXAMPLE = {
  watchId: ID,
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
