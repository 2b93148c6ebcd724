import { defineContract } from "../contract.js";
import { CERTIFICATE } from "./limits.js";
import { CertificateBody, CertificateSchema, type CriterionReport } from "./schemas.js";

const CERT_ID = "3f0c8d5e-6a1b-4c2d-9e8f-7a6b5c4d3e2f";
const BASE = "https://lookout.example";
// Anvil account 21, the demo's Skycast payTo: the example proof below is its real signature.
const PAY_TO = "0x02484cb50AAC86Eae85610D6f4Bf026f30f6627D";

export const CRITERIA_EXAMPLE: CriterionReport[] = [
  {
    id: "in_catalog",
    description: "at least one active catalog listing is covered, and every covered listing is active",
    required: ">= 1 active listing",
    met: true,
    observed: 2,
    failing: [],
    failing_count: 0,
  },
  { id: "probes_7d", description: "at least 20 probes in the last 7 days", required: ">= 20", met: true, observed: 1008, failing: [], failing_count: 0 },
  { id: "uptime_7d", description: "7-day uptime of at least 95%", required: ">= 95%", met: true, observed: 99.6, failing: [], failing_count: 0 },
  {
    id: "no_critical_warning",
    description:
      "no critical warning (dead, zombie, decoy_price_extreme, never_paid_zombie, dead_7d, mostly_dead, pay_to_mismatch, asset_not_usdc, network_mismatch, cloaking, malformed_quote, suspicious_high_price, price_switch)",
    required: "none",
    met: true,
    observed: "none",
    failing: [],
    failing_count: 0,
  },
  {
    id: "clean_verdict",
    description:
      "the listing's own verdict is pay and nothing delists it: no wallet-drain price, no wildcard_402, spa_fallback, proxy_markup or failing listing, no other warning about the endpoint, not a ghost listing",
    required: "pay",
    met: true,
    observed: "pay",
    failing: [],
    failing_count: 0,
  },
  {
    id: "p99_latency_7d",
    description: "p99 latency over 7 days of at most 5000 ms",
    required: "<= 5000 ms",
    met: true,
    observed: 412,
    failing: [],
    failing_count: 0,
  },
  {
    id: "price_range",
    description: "price between 0.0001 and 5 USDC",
    required: "0.0001 to 5 USDC",
    met: true,
    observed: "0.001 to 0.003",
    failing: [],
    failing_count: 0,
  },
  {
    id: "x402_v2_challenge",
    description: "a valid x402 v2 challenge (HTTP 402) on the latest probe",
    required: "x402 v2 challenge (402)",
    met: true,
    observed: "x402 v2 challenge (402)",
    failing: [],
    failing_count: 0,
  },
];

export const CERTIFICATE_EXAMPLE = {
  certId: CERT_ID,
  verified: true,
  tier: "verified" as const,
  url: "https://weather.example/*",
  name: "Skycast Weather",
  payTo: PAY_TO,
  host: "weather.example",
  provenBy: "signature" as const,
  badgeUrl: `${BASE}/verified/${CERT_ID}/badge.svg`,
  pageUrl: `${BASE}/verified/${CERT_ID}`,
  jwksUrl: `${BASE}/.well-known/jwks.json`,
  issuedAt: "2026-11-20T12:00:00.000Z",
  validUntil: "2026-12-20T12:00:00.000Z",
  listings_covered: 2,
  criteria: CRITERIA_EXAMPLE,
  jws: "eyJhbGciOiJFZERTQSIsImtpZCI6Ik1fTnNZSjRYV2lVRlQ1cVNxRmh2V3BjS0ZPVHd2d0JVZmFiR3l3UnBSQlkiLCJ0eXAiOiJKV1QifQ.eyJjZXJ0SWQiOiIzZjBjOGQ1ZS02YTFiLTRjMmQtOWU4Zi03YTZiNWM0ZDNlMmYiLCJ0aWVyIjoidmVyaWZpZWQifQ.c2lnbmF0dXJlLWV4YW1wbGU",
};

/**
 * A request paid from another wallet, with the payTo's signature of
 * certificateProofMessage({ issuer: "https://lookout.example", ...this request }).
 */
export const CERTIFICATE_REQUEST_EXAMPLE = {
  url: "https://weather.example/*",
  name: "Skycast Weather",
  proof: {
    signature: "0x19666d6dda7842e94143a8bb9e3675aa4702c8ffde0f1870e3eff1750e62ef70000797a9589af93796979a35f2d1c5a62150d1a7a38e8ae0e568d09309f935141c",
    issuedAt: "2026-11-20T11:58:30.000Z",
  },
};
export const EXAMPLE_ISSUER = BASE;

export const createCertificateContract = defineContract({
  id: "verified",
  method: "post",
  path: "/api/v1/verified",
  price: "1",
  product: "Verified",
  title: "Verified provider certificate",
  summary:
    "A 30-day signed certificate and a public badge for an endpoint, or every endpoint under a pattern, that meets the verification criteria; only for the controller of the endpoints' payTo.",
  description: [
    "Name an endpoint `url`, or a pattern covering every active listing under it: an origin (https://api.example.com, or https://api.example.com/*) or an origin and path prefix ending in * (https://api.example.com/v1/*). Every covered listing must meet every criterion, and each criterion is reported with the URLs that fail it.",
    `The criteria: at least ${CERTIFICATE.minProbes7d} probes in 7 days; 7-day uptime of at least ${CERTIFICATE.minUptime7dPct}%; no critical warning; a clean verdict (the listing's own verdict is pay, as preflight rates it, and it is not a ghost listing: no wallet-drain price, no wildcard-402, SPA-fallback, proxy-markup or failing listing); p99 latency over 7 days of at most ${CERTIFICATE.maxP99LatencyMs} ms; a price between ${CERTIFICATE.minPriceUsdc} and ${CERTIFICATE.maxPriceUsdc} USDC; a valid x402 v2 challenge (HTTP 402) on the latest probe.`,
    "Proof of control: every covered listing must be paid to one EVM payTo, and the request must prove it controls that address, either by paying this call from it (the x402 payer is the payTo) or with `proof` ({ signature, issuedAt }), the payTo's EIP-191 (personal_sign) signature of five lines joined by \\n: `x402 Lookout certificate request`, `issuer: <JSON string>` (this service's base address, the certificates' iss), `url: <JSON string>` and `name: <JSON string, or null when omitted>` exactly as sent, and `issuedAt: <JSON string>` equal to proof.issuedAt, at most 10 minutes old and not in the future. Otherwise 422 (payto_not_proven, proof_invalid, proof_stale, payto_ambiguous, payto_missing or payto_unsupported) with the covered payTos and the payer; nothing is settled.",
    "Name: the requested name, or without one the catalog's service name of the covered listings. A name that imitates another provider's catalog service (the same name, one containing or contained in it, or one naming the same well-known brand, compared after folding case, accents and look-alike characters) is refused with 422 name_imitates; nothing is settled.",
    "Met: a certificate valid 30 days naming the proven payTo and the host, with a compact Ed25519 JWS of it (verify against /.well-known/jwks.json), an SVG badge (badgeUrl) and a public page with the evidence (pageUrl). The badge and page show the live state: once a covered endpoint stops meeting a criterion, or after validUntil, they show the certificate as lapsed.",
    "Not met: 422 with tier not_verified, verified false and the failed criteria; nothing is settled, so nothing is charged. The certificate is provenance of what the probes observed, not an endorsement of the merchant.",
  ].join("\n\n"),
  body: CertificateBody,
  response: CertificateSchema,
  errors: [
    {
      status: 400,
      when: "url is not an endpoint or a supported pattern (only a trailing * is allowed, no query in a pattern); name not 1 to 80 printable characters; proof without a 65-byte hex signature or an RFC 3339 issuedAt; a pattern covering more than 5000 listings",
    },
    {
      status: 422,
      when: "control of the payTo is not proven (error payto_not_proven, proof_invalid, proof_stale, payto_ambiguous, payto_missing or payto_unsupported, with pay_to and payer), the name imitates another provider's service (name_imitates, with imitates), or a criterion is not met (not_verified: tier not_verified, verified false and the failed criteria); nothing was settled",
    },
    { status: 503, when: "the database timed out; nothing was settled" },
  ],
  examples: { request: CERTIFICATE_REQUEST_EXAMPLE, response: CERTIFICATE_EXAMPLE },
});
