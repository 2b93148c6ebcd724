import { z } from "zod";
import { hostKey, tryNormalizeHttpUrl } from "../../lib/url-normalize.js";
import { categoryOf } from "./category.js";
import { MAX_ADDRESS_CHARS, MAX_DESCRIPTION_CHARS, MAX_NETWORK_CHARS, MAX_SERVICE_NAME_CHARS, MAX_TAG_CHARS, MAX_TAGS, MAX_URL_CHARS } from "./constants.js";
import { domainOf, providerIdOf, serviceIdOf } from "./group-keys.js";
import { listingMethod } from "./listing-method.js";
import { canonicalNetwork, canonicalPayTo, listingPrice } from "./listing-price.js";
import { usageOf } from "./listing-usage.js";
import type { ParseResult } from "./types.js";

// PostgreSQL text cannot hold NUL; such a value would fail the whole batch, not just the item.
const noNul = (v: string) => !v.includes("\0");
const text = (max: number) => z.string().trim().min(1).max(max).refine(noNul, "contains a NUL character");

// Only what a listing cannot exist without; optional fields that are wrong are dropped later.
const itemSchema = z.looseObject({
  resource: z.string().max(MAX_URL_CHARS).refine(noNul, "contains a NUL character"),
  type: z.string().optional(),
  x402Version: z.number().int().min(1).max(100).optional(),
  accepts: z
    .array(
      z.looseObject({
        scheme: z.string(),
        network: text(MAX_NETWORK_CHARS),
        payTo: text(MAX_ADDRESS_CHARS),
        asset: text(MAX_ADDRESS_CHARS).optional(),
        amount: z.union([z.string(), z.number()]).optional(),
        maxAmountRequired: z.union([z.string(), z.number()]).optional(),
        extra: z
          .record(z.string(), z.unknown())
          .nullish()
          .transform((v) => v ?? undefined),
      }),
    )
    .min(1, "has no accepts entries"),
});

const clean = (v: string, max: number): string => v.replaceAll("\0", "").trim().slice(0, max);

const optionalText = (v: unknown, max: number): string | null => (typeof v === "string" && clean(v, max) !== "" ? clean(v, max) : null);

function tagsOf(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  const tags = v
    .filter((t): t is string => typeof t === "string")
    .map((t) => clean(t, MAX_TAG_CHARS))
    .filter((t) => t !== "");
  return [...new Set(tags)].slice(0, MAX_TAGS);
}

// Circle's discovery API names the service under metadata.provider (name, description, tags).
function circleProvider(metadata: unknown): Record<string, unknown> | undefined {
  const provider = metadata !== null && typeof metadata === "object" ? (metadata as Record<string, unknown>).provider : undefined;
  return provider !== null && typeof provider === "object" && !Array.isArray(provider) ? (provider as Record<string, unknown>) : undefined;
}

// An item without x402Version (PayAI mixes shapes under a v1 envelope) is known by its amounts.
function itemVersion(accepts: readonly { amount?: unknown; maxAmountRequired?: unknown }[]): number | undefined {
  if (accepts.every((a) => a.amount !== undefined && a.maxAmountRequired === undefined)) return 2;
  if (accepts.every((a) => a.maxAmountRequired !== undefined && a.amount === undefined)) return 1;
  return undefined;
}

/** One catalog item to a listing, or why it is malformed (or skipped: not an HTTP resource). */
export function parseListing(input: unknown, sourceVersion: number): ParseResult {
  const parsed = itemSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, reason: `${issue?.path.join(".") || "item"}: ${issue?.message ?? "invalid"}` };
  }
  const item = parsed.data;
  const resourceType = item.type ?? "http";
  if (resourceType !== "http") return { ok: false, skipped: true, reason: `resource type ${resourceType} is not probed` };
  const urlNormalized = tryNormalizeHttpUrl(item.resource);
  if (!urlNormalized) return { ok: false, reason: "resource: not an absolute http(s) URL" };
  // Normalising percent-encodes, so the cap applies again to what gets indexed.
  if (urlNormalized.length > MAX_URL_CHARS) return { ok: false, reason: `resource: longer than ${MAX_URL_CHARS} characters` };

  let price;
  try {
    price = listingPrice(item.accepts);
  } catch (err) {
    return { ok: false, reason: `accepts: ${(err as Error).message}` };
  }
  const first = item.accepts[0]!;
  const firstNetwork = canonicalNetwork(first.network);
  const firstPayTo = canonicalPayTo(firstNetwork, first.payTo);
  const origin = new URL(urlNormalized).origin;
  const provider = circleProvider(item.metadata);
  const serviceName = optionalText(item.serviceName, MAX_SERVICE_NAME_CHARS) ?? optionalText(provider?.name, MAX_SERVICE_NAME_CHARS) ?? origin;
  const tags = tagsOf(item.tags ?? provider?.tags);
  const description =
    optionalText(item.description, MAX_DESCRIPTION_CHARS) ??
    optionalText(first.description, MAX_DESCRIPTION_CHARS) ??
    optionalText(provider?.description, MAX_DESCRIPTION_CHARS);
  return {
    ok: true,
    listing: {
      url: item.resource,
      urlNormalized,
      method: listingMethod(item, item.accepts),
      host: hostKey(urlNormalized),
      domain: domainOf(urlNormalized),
      serviceName,
      serviceId: serviceIdOf(serviceName),
      origin,
      category: categoryOf(tags),
      tags,
      description,
      ...price,
      payTo: canonicalPayTo(price.network, price.payTo),
      provider: { id: providerIdOf(firstNetwork, firstPayTo), network: firstNetwork, payTo: firstPayTo },
      x402Version: item.x402Version ?? itemVersion(item.accepts) ?? sourceVersion,
      resourceType,
      ...usageOf(item.quality),
      raw: input as Record<string, unknown>,
    },
  };
}
