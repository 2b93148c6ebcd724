import { WHATS_NEW } from "../../../services/index.js";
import { whatsNewContract } from "@x402-lookout/contracts/catalog/routes";
import { badRequest } from "../../errors.js";
import { defineRoute } from "../../registry.js";

export const whatsNewRoute = defineRoute({
  ...whatsNewContract,
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
  check: ({ body }, services) => {
    if (!body.since) return;
    const since = Date.parse(body.since);
    const now = services.now().getTime();
    if (since < now - WHATS_NEW.maxAgeMs) throw badRequest("since: must not be older than 30 days");
    // No clock-skew tolerance: a window that starts after now is no window (spec 4.9).
    if (since > now) throw badRequest(`since: must not be in the future (server time ${new Date(now).toISOString()})`);
  },
  handler: async ({ body }, { services }) => {
    const now = services.now();
    const since = body.since ? new Date(body.since) : new Date(now.getTime() - WHATS_NEW.defaultWindowMs);
    return services.whatsNew.changes(since, body.limit, now);
  },
});
