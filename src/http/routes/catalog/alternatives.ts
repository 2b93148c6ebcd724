import { withDeadline } from "../../../lib/transient-errors.js";
import { alternativesContract } from "@x402-lookout/contracts/catalog/routes";
import { defineRoute } from "../../registry.js";

/** Spec 8: the alternatives database budget. */
const ALTERNATIVES_DB_BUDGET_MS = 8_000;

export const alternativesRoute = defineRoute({
  ...alternativesContract,
  examples: {
    request: { url: "https://dead.example/v1/forecast", limit: 2 },
    response: {
      target: {
        url: "https://dead.example/v1/forecast",
        known: true,
        service: "Skycast",
        service_id: "skycast",
        provider: "Skycast Labs",
        domain: "dead.example",
        category: "weather",
        price_usdc: "0.002",
        currency: "USDC",
      },
      match_strategy: "url_target",
      alternatives: [
        {
          url: "https://weather.example/v1/forecast",
          service: "Skycast",
          service_id: "skycast",
          provider: "Skycast Labs",
          domain: "weather.example",
          category: "weather",
          price_usdc: "0.002",
          currency: "USDC",
          uptime_1h_pct: 100,
          uptime_7d_pct: 99.8,
          avg_latency_1h_ms: 120,
          match_reason: "same_service",
        },
      ],
      candidate_count: 4,
    },
  },
  handler: ({ body }, { services }) =>
    withDeadline("alternatives database", ALTERNATIVES_DB_BUDGET_MS, () =>
      services.alternatives.find({ url: body.url, taskClass: body.taskClass, limit: body.limit }),
    ),
});
