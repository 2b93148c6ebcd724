import { defineContract } from "../contract.js";
import { CERTIFICATE } from "./limits.js";
import { CertIdParams, CertificateBody, CertificateSchema, CertificateStatusSchema } from "./schemas.js";

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
});

export const getCertificateContract = defineContract({
  id: "verified-status",
  method: "get",
  path: "/api/v1/verified/:certId",
  price: null,
  title: "Certificate status",
  summary: "The live state of a certificate (verified or lapsed, and why); free.",
  description:
    "Recomputes the criteria from the current evidence of the listings the certificate covered. The state is lapsed after validUntil or once a covered listing stops meeting a criterion or leaves the catalog. The same state is on the public page and the badge.",
  params: CertIdParams,
  response: CertificateStatusSchema,
  errors: [
    { status: 404, when: "no certificate with this id (or its payment never settled)" },
    { status: 503, when: "the database is unavailable" },
  ],
});
