import { x402ResourceServer } from "@x402/core/server";
import type { Network } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/server";
import { bazaarResourceServerExtension } from "@x402/extensions/bazaar";
import { usdcToAtomic } from "@x402-lookout/contracts/usdc";
import { EXPECTATIONS } from "./expectations.js";
import type { ListingSpec } from "./plan/listing-spec.js";
import { DELIVERY_LISTINGS } from "./plan/delivery.js";
import { ECOSYSTEM_SHAPE_LISTINGS } from "./plan/ecosystem-shapes.js";
import { MARKETPLACE_LISTINGS } from "./plan/marketplace.js";
import { PREMIUM_LISTINGS, REFUSED_LISTINGS, SPA_LISTINGS, WILDCARD_LISTINGS, ZOMBIE_LISTINGS } from "./plan/other-hosts.js";
import { QUOTE_TRAP_LISTINGS } from "./plan/quote-traps.js";
import { createProviderBook } from "./providers.js";
import type { PaymentTerms } from "./servers/payment-terms.js";
import type { DemoCatalogItem, DemoEndpoint, DemoFleetOptions, DemoHosts } from "./types.js";

/** A listing on the server that answers it. */
export interface PlacedListing {
  spec: ListingSpec;
  url: string;
}

/**
 * The SDK resource server every demo merchant shares, on the caller's facilitator (never the
 * SDK's silent public default), initialised once so the catalog and the 402s agree.
 */
export async function createPaymentTerms(opts: DemoFleetOptions): Promise<PaymentTerms> {
  if (!/^[a-z0-9-]+:[A-Za-z0-9-]+$/.test(opts.network)) throw new Error(`demo fleet: network ${opts.network} is not a CAIP-2 id`);
  const network = opts.network as Network;
  const resourceServer = new x402ResourceServer(opts.facilitator).register(network, new ExactEvmScheme()).registerExtension(bazaarResourceServerExtension);
  await resourceServer.initialize();
  return { resourceServer, network, asset: opts.asset, providers: createProviderBook(opts.payTo) };
}

const place = (origin: string, specs: readonly ListingSpec[]): PlacedListing[] => specs.map((spec) => ({ spec, url: `${origin}${spec.path}` }));

/** Every built-in listing, placed on its host. */
export function layOut(hosts: Omit<DemoHosts, "catalog">, resold: readonly ListingSpec[]): PlacedListing[] {
  return [
    ...place(hosts.marketplace, [...MARKETPLACE_LISTINGS, ...ECOSYSTEM_SHAPE_LISTINGS]),
    ...place(hosts.refused, REFUSED_LISTINGS),
    ...place(hosts.zombie, ZOMBIE_LISTINGS),
    ...place(hosts.premium, PREMIUM_LISTINGS),
    ...place(hosts.wildcard, WILDCARD_LISTINGS),
    ...place(hosts.spa, SPA_LISTINGS),
    ...place(hosts.reseller, resold),
    ...place(hosts.quotes, QUOTE_TRAP_LISTINGS),
    ...place(hosts.delivery, DELIVERY_LISTINGS),
  ];
}

export function describeEndpoint(terms: PaymentTerms, placed: PlacedListing, item: DemoCatalogItem, upstreamOrigin: string): DemoEndpoint {
  const { spec, url } = placed;
  const expected = EXPECTATIONS[spec.kind];
  return {
    url,
    method: spec.method,
    kind: spec.kind,
    serviceName: spec.service.serviceName,
    provider: terms.providers.name(spec.service.provider),
    payTo: terms.providers.payTo(spec.service.provider),
    price: spec.price,
    amount: usdcToAtomic(spec.price),
    description: spec.description,
    tags: [...spec.service.tags],
    quality: { ...item.quality },
    expected: {
      ...expected,
      warnings: [...expected.warnings, ...(spec.alsoExpect ?? [])],
      delistReasons: [...expected.delistReasons],
      ...(expected.mayAlso ? { mayAlso: [...expected.mayAlso] } : {}),
    },
    ...(spec.upstreamPath ? { upstreamUrl: `${upstreamOrigin}${spec.upstreamPath}` } : {}),
    ...(spec.quoteTrick ? { quoteTrick: structuredClone(spec.quoteTrick) } : {}),
  };
}
