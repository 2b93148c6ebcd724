import { HTTP_METHODS } from "./constants.js";

/**
 * Origin manifests as Bazaar items (docs/catalog.md, "Origin manifests"). Pure: the caller
 * fetches the document. A manifest speaks for its own origin only, so resources on other
 * origins are dropped: one host cannot list another's endpoints through its manifest.
 */
export interface ManifestResource {
  url: string;
  method: string;
  /** The USD price the document states (`x-payment-info.price`), advisory only. */
  priceUsd: string | null;
  /** A Bazaar item when the document states the x402 terms (network, payTo, amount); else null. */
  item: Record<string, unknown> | null;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : undefined);
const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);
const METHODS = new Set<string>(HTTP_METHODS);
const MAX_RESOURCES = 1000;

/** An absolute URL on `origin` from an absolute URL or a path; null for another origin or garbage. */
function sameOrigin(ref: string, base: string, origin: string): string | null {
  try {
    const u = new URL(ref, base);
    return u.origin === new URL(origin).origin ? u.toString() : null;
  } catch {
    return null;
  }
}

// `{ x402: { scheme, network, payTo, amount, asset, ... } }` with full terms, or `{ x402: {} }`/"x402".
function x402Terms(info: Obj): Obj | undefined {
  const protocols = Array.isArray(info.protocols) ? info.protocols : [];
  for (const p of protocols) {
    const t = obj(obj(p)?.x402);
    if (t && str(t.network) && str(t.payTo) && (str(t.amount) ?? str(t.maxAmountRequired))) return t;
  }
  return undefined;
}

function usdPrice(info: Obj): string | null {
  const price = obj(info.price);
  const amount = price ? str(price.amount) : (str(info.price) ?? str(info.minPrice));
  const currency = price ? (str(price.currency) ?? "USD") : "USD";
  return amount && currency.toUpperCase() === "USD" && /^\d+(\.\d+)?$/.test(amount.replace(/^\$/, "")) ? amount.replace(/^\$/, "") : null;
}

function bazaarItem(url: string, method: string, terms: Obj, description: string | undefined): Obj {
  const amount = str(terms.amount) ?? str(terms.maxAmountRequired);
  const version = terms.maxAmountRequired !== undefined && terms.amount === undefined ? 1 : 2;
  const entry = { scheme: str(terms.scheme) ?? "exact", ...terms, [version === 1 ? "maxAmountRequired" : "amount"]: amount };
  return {
    resource: url,
    type: "http",
    x402Version: version,
    method,
    accepts: [entry],
    ...(description ? { description } : {}),
  };
}

/** Paid operations of an OpenAPI document: each operation with `x-payment-info`. */
function openApiResources(doc: Obj, origin: string): ManifestResource[] {
  const server = str(obj(Array.isArray(doc.servers) ? doc.servers[0] : undefined)?.url);
  const base = sameOrigin(server ?? "/", origin, origin) ?? origin;
  const out: ManifestResource[] = [];
  for (const [path, ops] of Object.entries(obj(doc.paths) ?? {})) {
    // A templated path (`/items/{id}`) names no probe-able URL until filled in.
    if (path.includes("{")) continue;
    for (const [m, op] of Object.entries(obj(ops) ?? {})) {
      const info = obj(obj(op)?.["x-payment-info"]);
      const method = m.toUpperCase();
      if (!info || !METHODS.has(method)) continue;
      const url = sameOrigin(`${base.replace(/\/$/, "")}/${path.replace(/^\//, "")}`, base, origin);
      if (!url) continue;
      const terms = x402Terms(info);
      const description = str(obj(op)?.summary) ?? str(obj(op)?.description);
      out.push({ url, method, priceUsd: usdPrice(info), item: terms ? bazaarItem(url, method, terms, description) : null });
    }
  }
  return out;
}

/** A `/.well-known/x402` entry: a URL or path string ("GET /path" too), or a Bazaar-like object. */
function wellKnownResource(entry: unknown, origin: string): ManifestResource | null {
  const text = str(entry);
  if (text) {
    const [first, rest] = text.split(/\s+/, 2);
    const hasMethod = rest !== undefined && METHODS.has(first!.toUpperCase());
    const url = sameOrigin(hasMethod ? rest : text, origin, origin);
    return url ? { url, method: hasMethod ? first!.toUpperCase() : "", priceUsd: null, item: null } : null;
  }
  const o = obj(entry);
  const ref = o ? (str(o.resource) ?? str(o.url)) : undefined;
  const url = ref ? sameOrigin(ref, origin, origin) : null;
  if (!o || !url) return null;
  const method = str(o.method)?.toUpperCase() ?? "";
  const accepts = Array.isArray(o.accepts) && o.accepts.length > 0 ? o.accepts : null;
  const item = accepts ? { ...o, resource: url, type: str(o.type) ?? "http", accepts, ...(method ? { method } : {}) } : null;
  return { url, method: METHODS.has(method) ? method : "", priceUsd: usdPrice(o), item };
}

/**
 * Every resource a manifest names: an OpenAPI document (`openapi` or `swagger` key) or a
 * `/.well-known/x402` document (`resources` or `items`: URLs, paths or Bazaar-like objects).
 * An empty method means the document does not say; the caller's default applies.
 */
export function manifestResources(doc: unknown, origin: string): ManifestResource[] {
  const d = obj(doc);
  if (!d) return [];
  if (str(d.openapi) || str(d.swagger)) return openApiResources(d, origin).slice(0, MAX_RESOURCES);
  const list = Array.isArray(d.resources) ? d.resources : Array.isArray(d.items) ? d.items : [];
  return list.flatMap((e) => wellKnownResource(e, origin) ?? []).slice(0, MAX_RESOURCES);
}

/** The Bazaar items of a manifest: the resources whose x402 terms the document states. */
export function manifestItems(doc: unknown, origin: string): Record<string, unknown>[] {
  return manifestResources(doc, origin).flatMap((r) => (r.item ? [r.item] : []));
}

/**
 * A Bazaar item from a resource's 402 challenge (v1 body or decoded v2 header), for manifest
 * resources that state no terms: the runtime challenge is authoritative for them anyway.
 */
export function itemFromChallenge(url: string, method: string, challenge: unknown): Record<string, unknown> | null {
  const c = obj(challenge);
  if (!c || !Array.isArray(c.accepts) || c.accepts.length === 0) return null;
  const resource = obj(c.resource);
  const description = str(resource?.description) ?? str(obj(c.accepts[0])?.description);
  return {
    resource: url,
    type: "http",
    x402Version: c.x402Version === 1 ? 1 : 2,
    accepts: c.accepts,
    ...(method ? { method } : {}),
    ...(description ? { description } : {}),
    ...(obj(c.extensions) ? { extensions: c.extensions } : {}),
  };
}
