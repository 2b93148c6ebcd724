import type { PaymentOption } from "@x402/core/http";
import type { ResourceConfig, RouteConfig, x402ResourceServer } from "@x402/core/server";
import type { AssetAmount, Network, PaymentRequirements } from "@x402/core/types";
import { bazaarResourceServerExtension, declareDiscoveryExtension } from "@x402/extensions/bazaar";
import { usdcToAtomic } from "@x402-lookout/contracts/usdc";
import { MAX_TIMEOUT_SECONDS } from "../constants.js";
import { schemaOf, type ListingSpec } from "../plan/listing-spec.js";
import type { ProviderBook } from "../providers.js";
import type { DemoMethod } from "../types.js";

/** Everything needed to state a demo listing's payment terms the way the SDK states them. */
export interface PaymentTerms {
  /** Initialised on the fleet's facilitator; shared by every demo server. */
  resourceServer: x402ResourceServer;
  network: Network;
  asset: { address: string; name: string; version: string };
  providers: ProviderBook;
}

/** An AssetAmount price, so the challenge names the fleet's asset rather than a network default. */
export function assetPrice(terms: PaymentTerms, price: string): AssetAmount {
  const { address, name, version } = terms.asset;
  return { asset: address, amount: usdcToAtomic(price), extra: { name, version } };
}

// The reseller settles before it runs its handler: it pays the upstream out of the client's
// payment, and a fresh demo wallet holds nothing before the first one arrives.
const flowExtra = (spec: ListingSpec) => (spec.kind === "proxy_reseller" ? { paymentFlow: "upfront" } : undefined);

export function paymentOption(terms: PaymentTerms, spec: ListingSpec): PaymentOption & ResourceConfig {
  const extra = flowExtra(spec);
  return {
    scheme: "exact",
    network: terms.network,
    payTo: terms.providers.payTo(spec.service.provider),
    price: assetPrice(terms, spec.price),
    maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
    ...(extra ? { extra } : {}),
  };
}

/** The requirement a 402 for this listing carries, built by the same SDK call the middleware makes. */
export async function requirementFor(terms: PaymentTerms, spec: ListingSpec): Promise<PaymentRequirements> {
  const [requirement] = await terms.resourceServer.buildPaymentRequirements(paymentOption(terms, spec));
  if (!requirement) throw new Error(`the x402 SDK built no payment requirement for ${spec.path}`);
  return requirement;
}

type Schemas = Pick<ListingSpec, "inputSchema" | "outputSchema">;

/** The Bazaar discovery declaration a merchant puts on its route (input example and schema, output example and schema). */
export function discoveryDeclaration(method: DemoMethod, input: Record<string, unknown>, output: unknown, schemas: Schemas = {}): Record<string, unknown> {
  const common = {
    input,
    inputSchema: schemas.inputSchema ?? schemaOf(input),
    output: { example: output, ...(schemas.outputSchema ? { schema: schemas.outputSchema } : {}) },
  };
  return method === "GET" ? declareDiscoveryExtension(common) : declareDiscoveryExtension({ ...common, bodyType: "json" });
}

/**
 * The declaration as a 402 carries it: the SDK's bazaar extension adds the HTTP method (the
 * Bazaar's place for it is extensions.bazaar.info.input.method). Running the same enrichment
 * keeps the catalog's copy equal to the endpoint's.
 */
export function enrichedDiscovery(declaration: Record<string, unknown>, method: DemoMethod, path: string, routePattern: string): Record<string, unknown> {
  const context = { method, path, routePattern, adapter: { getPath: () => path } };
  const bazaar = bazaarResourceServerExtension.enrichDeclaration?.(declaration.bazaar, context) ?? declaration.bazaar;
  return { bazaar };
}

export function routeConfig(terms: PaymentTerms, spec: ListingSpec, resourceUrl: string | undefined, now: Date): RouteConfig {
  return {
    accepts: paymentOption(terms, spec),
    ...(resourceUrl ? { resource: resourceUrl } : {}),
    description: spec.description,
    mimeType: "application/json",
    serviceName: spec.service.serviceName,
    tags: spec.service.tags,
    extensions: discoveryDeclaration(spec.method, spec.input, spec.answer(spec.input, now), spec),
  };
}
