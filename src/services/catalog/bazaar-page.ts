import type { DiscoveryResource, DiscoveryResourcesResponse } from "@x402/extensions/bazaar";
import { z } from "zod";

/**
 * The x402 Bazaar discovery API (`GET <source>?limit=&offset=`), typed with the official SDK's
 * DiscoveryResource. CDP's Bazaar adds usage figures under `quality`, which the SDK does not
 * type yet.
 */
export interface BazaarQuality {
  l30DaysTotalCalls?: number | null;
  l30DaysUniquePayers?: number | null;
  lastCalledAt?: string | null;
}

export type BazaarItem = DiscoveryResource & { quality?: BazaarQuality | null; method?: string };

export type BazaarPage = Omit<DiscoveryResourcesResponse, "items"> & { items: unknown[] };

const count = z.number().int().min(0);

// Items are checked one by one later, so one bad item cannot make the whole page garbage.
const pageSchema = z.object({
  x402Version: z.number().int().optional(),
  items: z.array(z.unknown()),
  pagination: z.object({ limit: count, offset: count, total: count }),
});

/** The page envelope, or a reason why the body is not one. */
export function parseBazaarPage(body: unknown): { ok: true; page: BazaarPage } | { ok: false; reason: string } {
  const parsed = pageSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join(".") : "body";
    return { ok: false, reason: `not a discovery page (${where}: ${issue?.message ?? "invalid"})` };
  }
  const { x402Version, items, pagination } = parsed.data;
  return { ok: true, page: { x402Version: x402Version ?? 2, items, pagination } };
}

/** The URL of one page: the source URL with limit and offset set, its other parameters kept. */
export function pageUrl(source: string, limit: number, offset: number): string {
  const u = new URL(source);
  u.searchParams.set("limit", String(limit));
  u.searchParams.set("offset", String(offset));
  return u.toString();
}
