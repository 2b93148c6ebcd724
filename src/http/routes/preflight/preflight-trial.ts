import { defineRoute } from "../../registry.js";
import { PREFLIGHT_EXAMPLE } from "./examples.js";
import { SingleUrlBody } from "./request.js";
import { PreflightReportSchema } from "./schemas.js";

export const preflightTrialRoute = defineRoute({
  id: "preflight-trial",
  method: "post",
  path: "/api/v1/preflight-trial",
  price: null,
  product: "Preflight Trial",
  title: "Preflight trial (free)",
  summary: "The preflight verdict for one URL, free: 10 calls per IP and 50 per target host per UTC day.",
  description:
    "The same report as POST /api/v1/preflight without payment, for trying the service. Answers are cached 300 s per URL. Limits: 10 calls per client IP and 50 calls per target host per UTC day; past them, 429 with retry-after (seconds to the next UTC midnight) and x-rate-limit-reset (that moment, in Unix seconds).",
  body: SingleUrlBody,
  response: PreflightReportSchema,
  examples: { request: { url: "https://premium-signals.example/api/alpha" }, response: PREFLIGHT_EXAMPLE },
  errors: [
    { status: 400, when: "malformed body; exactly one `url` (http or https) is required" },
    { status: 429, when: "trial limit reached; read retry-after and x-rate-limit-reset" },
    { status: 503, when: "the database or the probe pipeline timed out" },
  ],
  handler: ({ body }, { app, clientIp }) => app.services.trial.preflight(body.url, clientIp),
});
