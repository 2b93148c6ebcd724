import { defineContract } from "../contract.js";
import { PREFLIGHT_EXAMPLE } from "./preflight.js";
import { QUOTE_BINDING, QuoteTargetBody } from "./request.js";
import { SignedPreflightReportSchema } from "./schemas.js";

export const preflightTrialContract = defineContract({
  id: "preflight-trial",
  method: "post",
  path: "/api/v1/preflight-trial",
  price: null,
  product: "Preflight Trial",
  title: "Preflight trial (free)",
  summary: "The preflight verdict for one URL, free: 10 calls per IP and 50 per target host per UTC day.",
  description:
    "The same report as POST /api/v1/preflight without payment, for trying the service. Answers are cached 300 s per URL, except quote-bound ones (with `paymentRequired`), which are never cached. Limits: 10 calls per client IP and 50 calls per target host per UTC day (a call answered from the cache does not count against the host, and one client network, /24 or /48, makes at most 5 of a host's calls: docs/signals.md); past them, 429 with retry-after (seconds to the next UTC midnight) and x-rate-limit-reset (that moment, in Unix seconds).\n\n" +
    QUOTE_BINDING,
  body: QuoteTargetBody,
  response: SignedPreflightReportSchema,
  signedVerdicts: "answer",
  errors: [
    {
      status: 400,
      when: "malformed body; exactly one `url` (http or https) is required; an unreadable `paymentRequired` is reported as `paymentRequired: <reason>`",
    },
    { status: 429, when: "trial limit reached; read retry-after and x-rate-limit-reset" },
    { status: 503, when: "the database or the probe pipeline timed out" },
  ],
  examples: { request: { url: "https://premium-signals.example/api/alpha" }, response: PREFLIGHT_EXAMPLE },
});
