import { DEFAULT_METHOD, HTTP_METHODS } from "./constants.js";

type Loose = Record<string, unknown> | undefined;

const obj = (v: unknown): Loose => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);

function httpMethod(v: unknown): string | undefined {
  if (typeof v !== "string") return undefined;
  const m = v.trim().toUpperCase();
  return (HTTP_METHODS as readonly string[]).includes(m) ? m : undefined;
}

/**
 * The HTTP method of a catalog item, from wherever the Bazaar carries it: the item itself
 * (enriched DiscoveredHTTPResource), the v2 bazaar extension (extensions.bazaar.info.input),
 * or the v1 outputSchema of an accepts entry. Values that are not HTTP methods are ignored.
 */
export function listingMethod(item: Record<string, unknown>, accepts: readonly unknown[]): string {
  const bazaarInput = obj(obj(obj(obj(item.extensions)?.bazaar)?.info)?.input);
  const candidates: unknown[] = [item.method, bazaarInput?.method];
  for (const a of accepts) candidates.push(obj(obj(obj(a)?.outputSchema)?.input)?.method);
  for (const c of candidates) {
    const m = httpMethod(c);
    if (m) return m;
  }
  return DEFAULT_METHOD;
}
