import { NO_DELIVERY } from "./delivery.js";
import { defineContract } from "../contract.js";
import { QUOTE_BINDING, QuoteTargetBody } from "./request.js";
import { SignedPreflightReportSchema, type SignedPreflightReport } from "./schemas.js";

/** Example answers for the reference pages and the OpenAPI document (signed by an example key, not the service's). */
export const PREFLIGHT_EXAMPLE: SignedPreflightReport = {
  ok: false,
  warnings: ["decoy_price_extreme"],
  metadata: {
    url: "https://premium-signals.example/api/alpha",
    service: "Premium Alpha Signals",
    service_id: "premium-alpha-signals",
    price_usdc: "2500",
    currency: "USDC",
    uptime_1h_pct: 100,
    avg_latency_ms: 84,
    is_active: true,
    wildcard_402_detected: false,
    wildcard_402_checked_at: "2026-11-20T03:12:44.000Z",
    spa_fallback_detected: false,
    spa_fallback_checked_at: "2026-11-20T03:12:44.000Z",
    effective_count_basis: null,
    // Its payTo is still being read from 30 days back (forensics' evidence.settlements is null too).
    settled_calls_30d: null,
    distinct_payers_30d: null,
    matched: { url: "https://premium-signals.example/api/alpha", method: "GET", by: "exact" },
  },
  risk_score: 1,
  confidence: 1,
  recommended_action: "skip",
  reason_codes: ["decoy_price_extreme"],
  observed_at: "2026-11-20T12:00:00.000Z",
  evidence: {
    probes_1h: 6,
    healthy_1h: 6,
    errors_30m: 0,
    price_amount_usdc: "2500",
    service_age_hours: 412.5,
    proxy_markup: { detected: false },
    wildcard_402_detected: false,
  },
  delivery: NO_DELIVERY,
  signature:
    "eyJhbGciOiJFZERTQSIsImtpZCI6IldxM3dPR1JvWUgxc0R2MWhKMGxROFpiUmdtMVprOG04eTVxWHlFOWgyRlEiLCJ0eXAiOiJsb29rb3V0LXZlcmRpY3Qrand0In0.eyJpc3MiOiJodHRwczovL2xvb2tvdXQuZXhhbXBsZSIsInVybCI6Imh0dHBzOi8vcHJlbWl1bS1zaWduYWxzLmV4YW1wbGUvYXBpL2FscGhhIiwibWV0aG9kIjoiUE9TVCIsInJlcXVpcmVtZW50X2RpZ2VzdCI6bnVsbCwidmlldyI6InByZWZsaWdodCIsIm9rIjpmYWxzZSwicmVjb21tZW5kZWRfYWN0aW9uIjoic2tpcCIsIndhcm5pbmdzIjpbImRlY295X3ByaWNlX2V4dHJlbWUiXSwicmlza19zY29yZSI6MSwib2JzZXJ2ZWRfYXQiOiIyMDI2LTExLTIwVDEyOjAwOjAwLjAwMFoiLCJleHAiOjE3OTUxNzYzMDB9.jM7x-z-rnbwSJxwYxnd7qnzWJ8C1D27fHiuvuQFErth32HZw8gy_ZIO_B_J0CA5fqYKbtqyyJXTBXo024pMoBA",
};

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
    "Looks the URL up in the continuously probed catalog and answers ok, warnings, risk_score, confidence and recommended_action (pay, skip, use_alternatives, investigate) with the evidence behind them. A URL that no catalog lists gets one live, SSRF-guarded probe, so a decoy price is caught even off-catalog.\n\nPay per call (0.001 USDC) or send X-Credit-Id with a prepaid bundle from POST /api/v1/credits; the answer then carries x-credit-balance and x-credit-expires-at. An exhausted or expired bundle falls through to the per-call payment. Treat a 503 as a failed preflight: do not pay the target blindly.\n\n" +
    QUOTE_BINDING,
  body: QuoteTargetBody,
  response: SignedPreflightReportSchema,
  signedVerdicts: "answer",
  headers: [{ name: "X-Credit-Id", description: "optional: pay from a prepaid credit bundle instead of per call" }],
  errors: [
    { status: 400, when: "`url` missing or not http(s); an unreadable `paymentRequired` is reported as `paymentRequired: <reason>`; nothing is charged" },
    { status: 503, when: "the database or the probe pipeline timed out; nothing was settled" },
  ],
  examples: { request: { url: "https://premium-signals.example/api/alpha" }, response: PREFLIGHT_EXAMPLE },
});
