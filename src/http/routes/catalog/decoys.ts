import { decoysContract } from "@x402-lookout/contracts/catalog/routes";
import { defineRoute } from "../../registry.js";

export const decoysRoute = defineRoute({
  ...decoysContract,
  examples: {
    request: {},
    response: {
      generated_at: "2026-11-20T12:00:00.000Z",
      counts: { total: 1, by_reason: { decoy_price_extreme: 1, zombie: 0, dead_7d: 0, mostly_dead: 0 }, wildcard_402_services: 0, spa_fallback_services: 0 },
      truncated: false,
      wildcard_402_hosts: [],
      spa_fallback_hosts: [],
      entries: [
        {
          url: "https://premium-signals.example/api/alpha",
          service_id: "premium-alpha-signals",
          service_name: "Premium Alpha Signals",
          provider: "Premium Alpha Signals",
          price_usdc: "2500",
          currency: "USDC",
          reasons: ["decoy_price_extreme"],
          probes_7d: 1008,
          healthy_7d: 1008,
          uptime_7d_pct: 100,
          last_probe_at: "2026-11-20T11:58:10.000Z",
          wildcard_402_detected: false,
          spa_fallback_detected: false,
          wildcard_402_checked_at: "2026-11-20T03:12:44.000Z",
          spa_fallback_checked_at: "2026-11-20T03:12:44.000Z",
        },
      ],
    },
  },
  handler: (_input, { services }) => services.blacklist.decoys(services.now()),
});
