import { defineRoute } from "../../registry.js";
import { FORENSICS_EXAMPLE } from "./examples.js";
import { SingleUrlBody } from "./request.js";
import { ForensicsReportSchema } from "./schemas.js";

export const forensicsRoute = defineRoute({
  id: "forensics",
  method: "post",
  path: "/api/v1/forensics",
  price: "0.001",
  product: "Forensics",
  title: "Forensics (7 days)",
  summary: "Seven days of evidence about one endpoint: uptime by hour, latency percentiles, status codes, concentration, decoy probability.",
  description:
    "A superset of preflight: the same verdict fields with the forensics warnings (dead_7d, mostly_dead, slow_p99, price_outlier_high, high_concentration), about 168 hourly buckets (most recent first), p50/p90/p99/max latency, status-code counts over 7 days, the provider group's share of the effective catalog and its price distribution, and decoy_probability (a noisy-OR of price extremity, never-paid usage, wildcard/SPA host behaviour and error history).",
  body: SingleUrlBody,
  response: ForensicsReportSchema,
  examples: { request: { url: "https://premium-signals.example/api/alpha" }, response: FORENSICS_EXAMPLE },
  errors: [
    { status: 400, when: "`url` missing or not http(s)" },
    { status: 503, when: "the database timed out; nothing was settled" },
  ],
  handler: ({ body }, { app }) => app.services.reports.forensics(body.url),
});
