import { SERVICE_NAME } from "../attribution.js";
import { openApiPath } from "../openapi.js";
import type { AnyRouteDef } from "../registry.js";
import { DISCOVERY_PATHS } from "./paths.js";

const price = (def: AnyRouteDef) => (def.price === null ? "free" : `${def.price} USDC`);
/** Paid POST routes have an HTML reference page at their own path; the rest are on /spec. */
const reference = (base: string, def: AnyRouteDef) => (def.price !== null && def.method === "post" ? `${base}${def.path}` : `${base}/spec#${def.id}`);

/** /llms.txt (llmstxt.org): what the service is and every route with its price, for language models. */
export function llmsTxt(base: string, routes: readonly AnyRouteDef[]): string {
  const list = routes
    .map((def) => `- [${def.method.toUpperCase()} ${openApiPath(def.path)}](${reference(base, def)}): ${price(def)}. ${def.summary}`)
    .join("\n");
  return `# ${SERVICE_NAME}

> Risk signals for x402 payment endpoints, sold per call through x402 v2 itself. Before an agent pays an x402 endpoint, ${SERVICE_NAME} says whether it is a decoy (1000 USDC or more), a zombie that always errors, a price trap, a host answering 402 for any path, or a listing nobody pays.

No API keys and no signup: payment is the credential. A paid route answers an unpaid request with HTTP 402 and an x402 v2 PaymentRequired (JSON body and base64 \`payment-required\` header); sign the USDC transfer (scheme exact) and repeat the request with \`PAYMENT-SIGNATURE\`. A failed answer (400, 422, 503) is never settled. Prices of 1 USDC and above exceed the x402 SDK's default spend cap of $1: raise it, e.g. \`new x402Client({ spendControls: { maxAmountPerPayment: "$5" } })\`.

## Routes

${list}

## Machine-readable

- [OpenAPI 3.1.0](${base}/openapi.json): every route, request and response schema
- [x402 manifest](${base}${DISCOVERY_PATHS.x402}): every paid route with price, network, asset, payTo and JSON schemas
- [Agent card](${base}${DISCOVERY_PATHS.agentCard}): A2A-style card with one skill per route
- [JWKS](${base}${DISCOVERY_PATHS.jwks}): Ed25519 keys that verify provider certificates

## Docs

- [Specification](${base}/spec): the interface contract, errors and limits
- [Public dataset](${base}${DISCOVERY_PATHS.dataset}): weekly per-endpoint aggregates, CC-BY-4.0
`;
}
