import { z } from "zod";
import { dateTime } from "../common.js";
import { defineContract } from "../contract.js";
import { WHATS_NEW_LIMIT } from "./limits.js";

const Endpoint = {
  url: z.string(),
  service_id: z.string(),
  service_name: z.string(),
  provider: z.string().nullable(),
  domain: z.string().nullable(),
  category: z.string().nullable(),
  price_usdc: z.string().nullable(),
  currency: z.string().nullable(),
};

export const WhatsNewSchema = z.object({
  since: dateTime(),
  until: dateTime(),
  window_hours: z.number(),
  added_endpoints: z.array(z.object({ ...Endpoint, first_seen_at: dateTime() })),
  removed_endpoints: z.array(z.object({ ...Endpoint, last_seen_at: dateTime() })),
  summary: z.object({
    added_endpoints_count: z.number().int(),
    removed_endpoints_count: z.number().int(),
    added_services_count: z.number().int(),
    removed_services_count: z.number().int(),
    polls_in_window: z.number().int(),
    current_active_endpoints: z.number().int(),
    current_active_services: z.number().int(),
    first_poll_at: dateTime().nullable(),
    last_poll_at: dateTime().nullable(),
  }),
  truncated: z.boolean(),
  limit: z.number().int(),
});

export const WhatsNewBody = z.object({
  since: z
    .string({ error: "since must be an ISO 8601 date-time string" })
    .datetime({ offset: true, error: "since must be an ISO 8601 date-time such as 2026-11-20T12:00:00Z" })
    .optional()
    .describe("default: now minus 24 hours; at most 30 days back; not in the future"),
  limit: z
    .number({ error: "limit must be an integer from 1 to 500" })
    .int("limit must be an integer from 1 to 500")
    .min(1, "limit must be at least 1")
    .max(500, "limit must be at most 500")
    .default(WHATS_NEW_LIMIT.default)
    .describe("cap applied to each list separately"),
});

export const whatsNewContract = defineContract({
  id: "whats-new",
  method: "post",
  path: "/api/v1/whats-new",
  price: "0.001",
  product: "Catalog Diff",
  title: "What's new in the catalog",
  summary: "Endpoints added to and removed from the catalog since a moment, with poll statistics.",
  description:
    "Added endpoints were first seen since `since` and are still listed; removed endpoints were delisted since `since` (a complete catalog poll no longer had them). Each list is capped at `limit` (newest first) and `truncated` says whether more existed. The catalog is ingested about every 5 minutes, so polling more often returns identical data. A reference summary in short form reads {added, removed}; the schema names are added_endpoints_count and removed_endpoints_count. Counts and lists are those of the catalog at the last verdict recompute (every 30 s).",
  body: WhatsNewBody,
  bodyOptional: true,
  response: WhatsNewSchema,
  errors: [
    { status: 400, when: "since invalid, older than 30 days or in the future; limit outside 1..500" },
    { status: 503, when: "the database timed out; nothing was settled" },
  ],
  examples: {
    request: { since: "2026-11-19T12:00:00Z", limit: 200 },
    response: {
      since: "2026-11-19T12:00:00.000Z",
      until: "2026-11-20T12:00:00.000Z",
      window_hours: 24,
      added_endpoints: [
        {
          url: "https://weather.example/v2/nowcast",
          service_id: "skycast",
          service_name: "Skycast",
          provider: "Skycast Labs",
          domain: "weather.example",
          category: "weather",
          price_usdc: "0.003",
          currency: "USDC",
          first_seen_at: "2026-11-20T09:05:00.000Z",
        },
      ],
      removed_endpoints: [],
      summary: {
        added_endpoints_count: 1,
        removed_endpoints_count: 0,
        added_services_count: 0,
        removed_services_count: 0,
        polls_in_window: 288,
        current_active_endpoints: 38,
        current_active_services: 17,
        first_poll_at: "2026-11-19T12:04:00.000Z",
        last_poll_at: "2026-11-20T11:59:00.000Z",
      },
      truncated: false,
      limit: 200,
    },
  },
});
