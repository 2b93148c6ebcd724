import type { PaymentRequirements } from "@x402/core/types";
import { usdcToAtomic } from "@x402-lookout/contracts/usdc";
import type { ListingSpec, QualitySpec } from "../plan/listing-spec.js";
import { discoveryDeclaration, enrichedDiscovery, requirementFor, type PaymentTerms } from "../servers/payment-terms.js";
import type { DemoCatalogItem, DemoListingInput, DiscoveryQuality } from "../types.js";

const HOUR_MS = 3_600_000;

export function qualityAt(q: QualitySpec, now: Date): DiscoveryQuality {
  return {
    l30DaysTotalCalls: q.calls,
    l30DaysUniquePayers: q.payers,
    ...(q.lastCalledHoursAgo === null ? {} : { lastCalledAt: new Date(now.getTime() - q.lastCalledHoursAgo * HOUR_MS).toISOString() }),
  };
}

/**
 * The Bazaar's record of a demo listing. `accepts` is what the endpoint's own 402 carries (or,
 * for endpoints that no longer challenge, what it carried when it was listed).
 */
export async function catalogItem(terms: PaymentTerms, spec: ListingSpec, url: string, now: Date): Promise<DemoCatalogItem> {
  const routePattern = spec.kind === "wildcard_402" ? "*" : spec.path;
  const declaration = discoveryDeclaration(spec.method, spec.input, spec.answer(spec.input, now), spec);
  return {
    resource: url,
    type: "http",
    x402Version: 2,
    accepts: [await requirementFor(terms, spec)],
    lastUpdated: new Date(now.getTime() - spec.updatedDaysAgo * 24 * HOUR_MS).toISOString(),
    description: spec.description,
    mimeType: "application/json",
    serviceName: spec.service.serviceName,
    tags: spec.service.tags,
    extensions: enrichedDiscovery(declaration, spec.method, new URL(url).pathname, routePattern),
    quality: qualityAt(spec.quality, now),
  };
}

/**
 * A listing added at run time. `template` is a requirement the SDK built for this fleet, so the
 * added one differs only in amount and payTo.
 */
export function addedCatalogItem(input: DemoListingInput, template: PaymentRequirements, defaultPayTo: string, now: Date): DemoCatalogItem {
  const method = input.method ?? "GET";
  return {
    resource: input.url,
    type: "http",
    x402Version: 2,
    accepts: [{ ...template, amount: usdcToAtomic(input.price), payTo: input.payTo ?? defaultPayTo, extra: { ...template.extra } }],
    lastUpdated: now.toISOString(),
    description: input.description ?? `${input.serviceName} API`,
    mimeType: "application/json",
    serviceName: input.serviceName,
    tags: input.tags ?? [],
    extensions: enrichedDiscovery(discoveryDeclaration(method, {}, {}), method, new URL(input.url).pathname, new URL(input.url).pathname),
    quality: input.quality ?? { l30DaysTotalCalls: 0, l30DaysUniquePayers: 0 },
  };
}
