import { bazaarResourceServerExtension, declareDiscoveryExtension } from "@x402/extensions/bazaar";
import { declarePaymentIdentifierExtension, PAYMENT_IDENTIFIER } from "@x402/extensions/payment-identifier";
import { attribution } from "../attribution.js";
import { routeJsonSchemas } from "../discovery/route-schemas.js";
import type { PaidRoute } from "./types.js";

export type PaymentRequiredExtensions = Readonly<Record<string, unknown>>;

// Per route, then per base address (one per process; tests run several services).
const cache = new WeakMap<PaidRoute, Map<string, PaymentRequiredExtensions>>();

/**
 * The `extensions` of a paid route's 402: the Bazaar discovery declaration, so a facilitator can
 * catalogue the route from any payment for it, and payment-identifier (an optional idempotency
 * key). Built once per route from its contract: 402s are the hot path.
 */
export function paymentRequiredExtensions(route: PaidRoute, publicBaseUrl: string): PaymentRequiredExtensions {
  let byBase = cache.get(route);
  if (!byBase) cache.set(route, (byBase = new Map()));
  let extensions = byBase.get(publicBaseUrl);
  if (!extensions) {
    extensions = Object.freeze({ bazaar: bazaarDeclaration(route, publicBaseUrl), [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(false) });
    byBase.set(publicBaseUrl, extensions);
  }
  return extensions;
}

/**
 * The input schema is the one /.well-known/x402 serves; examples are the contract's. The output
 * schema stays there: it would add up to 13 KB to the header, and clients echo the declaration
 * in PAYMENT-SIGNATURE, where a header over 16 KB is refused (Node's limit, and ours).
 */
function bazaarDeclaration(route: PaidRoute, base: string): unknown {
  // Product answers carry attribution.
  const example = route.product ? { ...route.examples.response, attribution: attribution(base, route.product) } : route.examples.response;
  const common = { input: route.examples.request ?? {}, inputSchema: routeJsonSchemas(route).input, output: { example } };
  const declared = route.method === "post" ? declareDiscoveryExtension({ ...common, bodyType: "json" }) : declareDiscoveryExtension(common);
  // The SDK's middleware adds the method per request (info.input.method, and the schema's enum);
  // this gate is our own, so the same enrichment runs here once.
  const context = { method: route.method.toUpperCase(), adapter: { getPath: () => route.path } };
  return bazaarResourceServerExtension.enrichDeclaration?.(declared.bazaar, context) ?? declared.bazaar;
}
