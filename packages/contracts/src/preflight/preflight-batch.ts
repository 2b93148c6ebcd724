import { defineContract } from "../contract.js";
import { PREFLIGHT_EXAMPLE } from "./preflight.js";
import { BatchBody } from "./request.js";
import { SignedBatchEnvelopeSchema } from "./schemas.js";

// A batch element is the preflight report without observed_at and two evidence fields.
const { proxy_markup: _m, wildcard_402_detected: _w, ...batchEvidence } = PREFLIGHT_EXAMPLE.evidence;
const { observed_at: _o, ...element } = PREFLIGHT_EXAMPLE;

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
});
