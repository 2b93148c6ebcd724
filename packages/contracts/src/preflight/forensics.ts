import { NO_DELIVERY } from "./delivery.js";
import { FORENSICS_CODES } from "../codes.js";
import { defineContract } from "../contract.js";
import { PREFLIGHT_EXAMPLE } from "./preflight.js";
import { QUOTE_BINDING, QuoteTargetBody } from "./request.js";
import { SignedForensicsReportSchema, type SignedForensicsReport } from "./schemas.js";

export const FORENSICS_EXAMPLE: SignedForensicsReport = {
  ...PREFLIGHT_EXAMPLE,
  signature:
    "eyJhbGciOiJFZERTQSIsImtpZCI6IldxM3dPR1JvWUgxc0R2MWhKMGxROFpiUmdtMVprOG04eTVxWHlFOWgyRlEiLCJ0eXAiOiJsb29rb3V0LXZlcmRpY3Qrand0In0.eyJpc3MiOiJodHRwczovL2xvb2tvdXQuZXhhbXBsZSIsInVybCI6Imh0dHBzOi8vcHJlbWl1bS1zaWduYWxzLmV4YW1wbGUvYXBpL2FscGhhIiwibWV0aG9kIjoiUE9TVCIsInJlcXVpcmVtZW50X2RpZ2VzdCI6bnVsbCwidmlldyI6ImZvcmVuc2ljcyIsIm9rIjpmYWxzZSwicmVjb21tZW5kZWRfYWN0aW9uIjoic2tpcCIsIndhcm5pbmdzIjpbImRlY295X3ByaWNlX2V4dHJlbWUiXSwicmlza19zY29yZSI6MSwib2JzZXJ2ZWRfYXQiOiIyMDI2LTExLTIwVDEyOjAwOjAwLjAwMFoiLCJleHAiOjE3OTUxNzYzMDB9.yv48OuCVw4k7_gstn6oUGA4bonBnA-cvyF8HxcXuNJ7Y-UZrUzv8IC76iSD_GOlldQm1i6tL9DRoA0FedCCcBA",
  decoy_probability: 0.95,
  vantages: [
    {
      name: "default",
      probes_3h: 18,
      healthy_3h: 18,
      uptime_3h_pct: 100,
      uptime_1h_pct: 100,
      last_probe_at: "2026-11-20T11:58:00.000Z",
      quote: {
        pay_to: "0x1111111111111111111111111111111111111111",
        amount: "2500000000",
        asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
        network: "eip155:84532",
      },
    },
  ],
  uptime: {
    probes_7d: 1008,
    healthy_7d: 1008,
    errors_7d: 0,
    uptime_7d_pct: 100,
    uptime_1h_pct: 100,
    avg_latency_1h_ms: 84,
    hourly: [{ bucket: "2026-11-20T12:00:00.000Z", probes: 1, healthy: 1, avg_latency_ms: 80 }],
  },
  latency: { p50_ms: 79, p90_ms: 120, p99_ms: 240, max_ms: 310 },
  status_codes: { "402": 1008 },
  concentration: {
    group_size: 1,
    raw_group_size: 1,
    effective_group_size: 1,
    catalog_total: 31,
    raw_catalog_total: 38,
    effective_catalog_total: 31,
    concentration_pct: 3.2,
    wildcard_402_detected: false,
    spa_fallback_detected: false,
    effective_count_basis: null,
    group_median_price_usdc: 2500,
    group_p90_price_usdc: 2500,
    price_ratio_to_median: 1,
  },
  evidence: {
    probes_1h: 6,
    healthy_1h: 6,
    probes_7d: 1008,
    healthy_7d: 1008,
    errors_30m: 0,
    price_amount_usdc: "2500",
    service_age_hours: 412.5,
    concentration_pct: 3.2,
    raw_concentration_group_size: 1,
    effective_concentration_group_size: 1,
    wildcard_402_detected: false,
    decoy_probability: 0.95,
    // A payTo still being read from 30 days back has no summary yet; the shape is SettlementsSchema's.
    settlements: null,
  },
  // Priced over the paid checker's ceiling: never paid, so never checked.
  delivery: { ...NO_DELIVERY, recent: [], reports: [] },
};

export const forensicsContract = defineContract({
  id: "forensics",
  method: "post",
  path: "/api/v1/forensics",
  price: "0.001",
  product: "Forensics",
  title: "Forensics (7 days)",
  summary: "Seven days of evidence about one endpoint: uptime by hour, latency percentiles, status codes, concentration, decoy probability.",
  description:
    `A superset of preflight: the same verdict fields with the forensics warnings (${FORENSICS_CODES.join(", ")}), about 168 hourly buckets (most recent first), p50/p90/p99/max latency, status-code counts over 7 days, the provider group's share of the effective catalog and its price distribution, and decoy_probability (a noisy-OR of price extremity, never-paid usage, wildcard/SPA host behaviour and error history).\n\n` +
    QUOTE_BINDING,
  body: QuoteTargetBody,
  response: SignedForensicsReportSchema,
  signedVerdicts: "answer",
  errors: [
    { status: 400, when: "`url` missing or not http(s); an unreadable `paymentRequired` is reported as `paymentRequired: <reason>`; nothing is charged" },
    { status: 503, when: "the database timed out; nothing was settled" },
  ],
  examples: { request: { url: "https://premium-signals.example/api/alpha" }, response: FORENSICS_EXAMPLE },
});
