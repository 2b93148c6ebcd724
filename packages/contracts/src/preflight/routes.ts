import { defineContract } from "../contract.js";
import { BatchBody, QuoteTargetBody } from "./request.js";
import { SignedBatchEnvelopeSchema, SignedForensicsReportSchema, SignedPreflightReportSchema } from "./schemas.js";

export const preflightTrialContract = defineContract({
  id: "preflight-trial",
  method: "post",
  path: "/api/v1/preflight-trial",
  price: null,
  product: "Preflight Trial",
  title: "Preflight trial (free)",
  summary: "The preflight verdict for one URL, free: 10 calls per IP and 50 per target host per UTC day.",
  description:
    "The same report as POST /api/v1/preflight without payment, for trying the service. Answers are cached 300 s per URL, except quote-bound ones (with `paymentRequired`), which are never cached. Limits: 10 calls per client IP and 50 calls per target host per UTC day (a call answered from the cache does not count against the host, and one client network, /24 or /48, makes at most 5 of a host's calls: docs/signals.md); past them, 429 with retry-after (seconds to the next UTC midnight) and x-rate-limit-reset (that moment, in Unix seconds).\n\nOptional `method` and `paymentRequired` (the 402 body object or the base64 PAYMENT-REQUIRED header value the agent holds) bind the verdict to that quote: the answer adds `quote` (the requirement checked and each of payTo, asset, network, amount, resource.url and scheme against the catalog and the observed history) and its warnings. Every answer carries `signature`, a compact JWS (EdDSA, keys at /.well-known/jwks.json) over the verdict, valid 5 minutes: docs/verdicts.md.",
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
});

export const preflightContract = defineContract({
  id: "preflight",
  method: "post",
  path: "/api/v1/preflight",
  price: "0.001",
  product: "Preflight",
  acceptsCredits: true,
  title: "Preflight",
  summary: "Should your agent pay this x402 endpoint? A verdict from continuous probes, before the payment.",
  description:
    "Looks the URL up in the continuously probed catalog and answers ok, warnings, risk_score, confidence and recommended_action (pay, skip, use_alternatives, investigate) with the evidence behind them. A URL that no catalog lists gets one live, SSRF-guarded probe, so a decoy price is caught even off-catalog.\n\nPay per call (0.001 USDC) or send X-Credit-Id with a prepaid bundle from POST /api/v1/credits; the answer then carries x-credit-balance and x-credit-expires-at. An exhausted or expired bundle falls through to the per-call payment. Treat a 503 as a failed preflight: do not pay the target blindly.\n\nOptional `method` and `paymentRequired` (the 402 body object or the base64 PAYMENT-REQUIRED header value the agent holds) bind the verdict to that quote: the answer adds `quote` (the requirement checked and each of payTo, asset, network, amount, resource.url and scheme against the catalog and the observed history) and its warnings. Every answer carries `signature`, a compact JWS (EdDSA, keys at /.well-known/jwks.json) over the verdict, valid 5 minutes: docs/verdicts.md.",
  body: QuoteTargetBody,
  response: SignedPreflightReportSchema,
  signedVerdicts: "answer",
  headers: [{ name: "X-Credit-Id", description: "optional: pay from a prepaid credit bundle instead of per call" }],
  errors: [
    { status: 400, when: "`url` missing or not http(s); an unreadable `paymentRequired` is reported as `paymentRequired: <reason>`; nothing is charged" },
    { status: 503, when: "the database or the probe pipeline timed out; nothing was settled" },
  ],
});

export const preflightBatchContract = defineContract({
  id: "preflight-batch",
  method: "post",
  path: "/api/v1/preflight-batch",
  price: "0.025",
  product: "Preflight Batch",
  title: "Preflight batch",
  summary: "Preflight verdicts for up to 50 URLs for one 0.025 USDC payment.",
  description:
    "One payment covers the whole batch. Duplicate URLs are removed (after normalisation) and results keep the input order. Each element is the preflight report without observed_at and without the proxy_markup and wildcard_402_detected evidence fields, plus metadata.established (a week of history) and metadata.has_free_trial (the endpoint answers 2xx without payment).\n\nThe database budget is 15 s; past it the answer is 503 with payment_settled false and nothing is settled.\n\nAn element of `urls` may be {url, method?, paymentRequired?} to bind that element to the quote the agent holds (its element then carries `quote`). Every element carries `signature`, a compact JWS over its verdict (docs/verdicts.md).",
  body: BatchBody,
  response: SignedBatchEnvelopeSchema,
  signedVerdicts: "results",
  errors: [
    {
      status: 400,
      when: "`urls` missing, empty, or an element is not http(s): reported as `urls[N]: <reason>` (`urls[N].paymentRequired: <reason>` for an unreadable quote); nothing is charged",
    },
    { status: 413, when: "more than 50 URLs" },
    { status: 503, when: "the 15 s database budget ran out; body has payment_settled false, settlement_skipped true, retry_after_seconds, detail" },
  ],
});

export const forensicsContract = defineContract({
  id: "forensics",
  method: "post",
  path: "/api/v1/forensics",
  price: "0.001",
  product: "Forensics",
  title: "Forensics (7 days)",
  summary: "Seven days of evidence about one endpoint: uptime by hour, latency percentiles, status codes, concentration, decoy probability.",
  description:
    "A superset of preflight: the same verdict fields with the forensics warnings (dead_7d, mostly_dead, slow_p99, price_outlier_high, high_concentration), about 168 hourly buckets (most recent first), p50/p90/p99/max latency, status-code counts over 7 days, the provider group's share of the effective catalog and its price distribution, and decoy_probability (a noisy-OR of price extremity, never-paid usage, wildcard/SPA host behaviour and error history).\n\nOptional `method` and `paymentRequired` (the 402 body object or the base64 PAYMENT-REQUIRED header value the agent holds) bind the verdict to that quote: the answer adds `quote` (the requirement checked and each of payTo, asset, network, amount, resource.url and scheme against the catalog and the observed history) and its warnings. Every answer carries `signature`, a compact JWS (EdDSA, keys at /.well-known/jwks.json) over the verdict, valid 5 minutes: docs/verdicts.md.",
  body: QuoteTargetBody,
  response: SignedForensicsReportSchema,
  signedVerdicts: "answer",
  errors: [
    { status: 400, when: "`url` missing or not http(s); an unreadable `paymentRequired` is reported as `paymentRequired: <reason>`; nothing is charged" },
    { status: 503, when: "the database timed out; nothing was settled" },
  ],
});
