import { preflightBatchContract } from "@x402-lookout/contracts/preflight/routes";
import { defineRoute } from "../../registry.js";
import { reportTarget } from "./report-target.js";
import { PREFLIGHT_EXAMPLE } from "@x402-lookout/contracts/preflight/examples";

const { proxy_markup: _m, wildcard_402_detected: _w, ...batchEvidence } = PREFLIGHT_EXAMPLE.evidence;
const { observed_at: _o, ...element } = PREFLIGHT_EXAMPLE;

export const preflightBatchRoute = defineRoute({
  ...preflightBatchContract,
  examples: {
    request: { urls: ["https://premium-signals.example/api/alpha", "https://weather.example/v1/forecast"] },
    response: {
      results: [
        {
          url: "https://premium-signals.example/api/alpha",
          ...element,
          metadata: { ...element.metadata, established: true, has_free_trial: false },
          evidence: batchEvidence,
        },
      ],
      summary: { total: 1, ok: 0, blocked: 1, by_recommended_action: { pay: 0, skip: 1, use_alternatives: 0, investigate: 0 } },
      observed_at: "2026-11-20T12:00:00.000Z",
      paid_amount: "0.025",
      effective_price_per_url: "0.025",
    },
  },
  prepare: ({ body }, services) => services.reports.find(body.urls.map(reportTarget)),
  handler: ({ body }, { services }, rows) => services.reports.batch(body.urls.map(reportTarget), rows),
});
