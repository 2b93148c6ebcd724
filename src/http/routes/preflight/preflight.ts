import { defineRoute } from "../../registry.js";
import { PREFLIGHT_EXAMPLE } from "./examples.js";
import { SingleUrlBody } from "./request.js";
import { PreflightReportSchema } from "./schemas.js";

export const preflightRoute = defineRoute({
  id: "preflight",
  method: "post",
  path: "/api/v1/preflight",
  price: "0.001",
  product: "Preflight",
  acceptsCredits: true,
  title: "Preflight",
  summary: "Should your agent pay this x402 endpoint? A verdict from continuous probes, before the payment.",
  description:
    "Looks the URL up in the continuously probed catalog and answers ok, warnings, risk_score, confidence and recommended_action (pay, skip, use_alternatives, investigate) with the evidence behind them. A URL that no catalog lists gets one live, SSRF-guarded probe, so a decoy price is caught even off-catalog.\n\nPay per call (0.001 USDC) or send X-Credit-Id with a prepaid bundle from POST /api/v1/credits; the answer then carries x-credit-balance and x-credit-expires-at. An exhausted or expired bundle falls through to the per-call payment. Treat a 503 as a failed preflight: do not pay the target blindly.",
  body: SingleUrlBody,
  response: PreflightReportSchema,
  headers: [{ name: "X-Credit-Id", description: "optional: pay from a prepaid credit bundle instead of per call" }],
  examples: { request: { url: "https://premium-signals.example/api/alpha" }, response: PREFLIGHT_EXAMPLE },
  errors: [
    { status: 400, when: "`url` missing or not http(s)" },
    { status: 503, when: "the database or the probe pipeline timed out; nothing was settled" },
  ],
  handler: ({ body }, { app }) => app.services.reports.preflight(body.url),
});
