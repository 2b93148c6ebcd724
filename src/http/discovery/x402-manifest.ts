import { SERVICE_NAME } from "../attribution.js";
import { openApiPath } from "../openapi.js";
import type { PaidRoute, PaymentGate } from "../payment/types.js";
import { isPaid, type AnyRouteDef } from "../registry.js";
import { usdcToAtomic } from "@x402-lookout/contracts/usdc";
import { routeJsonSchemas } from "./route-schemas.js";
import { DISCOVERY_PATHS } from "./paths.js";

export interface ManifestDeps {
  base: string;
  routes: readonly AnyRouteDef[];
  gate: PaymentGate | undefined;
  network: string;
}

/**
 * /.well-known/x402: every paid route with what an agent needs to pay it without a first 402
 * (method, price, network, asset, payTo, the full `accepts`) and its input and output schemas.
 * `resources` is an array, as x402 manifests are counted by crawlers.
 */
export function x402Manifest({ base, routes, gate, network }: ManifestDeps) {
  const resources = routes.filter(isPaid).map((def) => {
    const accepts = gate?.paymentRequired(def as PaidRoute).accepts ?? [];
    const first = accepts[0];
    const { input, output } = routeJsonSchemas(def);
    return {
      resource: `${base}${openApiPath(def.path)}`,
      type: "http",
      method: def.method.toUpperCase(),
      path: openApiPath(def.path),
      description: def.summary,
      mimeType: "application/json",
      price: def.price,
      currency: "USDC",
      amount: usdcToAtomic(def.price),
      network: first?.network ?? network,
      asset: first?.asset ?? null,
      payTo: first?.payTo ?? null,
      maxTimeoutSeconds: first?.maxTimeoutSeconds ?? null,
      accepts,
      acceptsCredits: def.acceptsCredits ?? false,
      reference: `${base}${openApiPath(def.path)}`,
      inputSchema: input,
      outputSchema: output,
    };
  });
  return {
    x402Version: 2,
    name: SERVICE_NAME,
    description: "Risk signals for x402 payment endpoints, paid per call with x402 v2: no keys, no signup.",
    url: base,
    resources,
    links: {
      openapi: `${base}/openapi.json`,
      spec: `${base}/spec`,
      llms: `${base}${DISCOVERY_PATHS.llms}`,
      agentCard: `${base}${DISCOVERY_PATHS.agentCard}`,
      jwks: `${base}${DISCOVERY_PATHS.jwks}`,
      dataset: `${base}${DISCOVERY_PATHS.dataset}`,
    },
  };
}
