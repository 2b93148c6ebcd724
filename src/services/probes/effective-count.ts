import type { EffectiveCountBasis } from "../../db/schema.js";
import { MANIFEST_PATH, SITEMAP_PATH } from "./constants.js";
import type { HttpClient } from "./http-client.js";

export interface EffectiveCount {
  count: number;
  basis: EffectiveCountBasis;
  sitemapUrlCount: number | null;
  manifestResourceCount: number | null;
}

const GET = (url: string) => ({ url, method: "GET", headers: { accept: "*/*" } });

/** `<url>` entries of a sitemap urlset; null when the body is not one (an SPA shell, a 402). */
export function countSitemapUrls(body: string): number | null {
  if (!/<urlset[\s>]/i.test(body)) return null;
  return body.match(/<url[\s>]/gi)?.length ?? 0;
}

/** Resources of an x402 manifest: a JSON object with a `resources` or `items` array. */
export function countManifestResources(body: string): number | null {
  try {
    const doc = JSON.parse(body) as unknown;
    if (!doc || typeof doc !== "object" || Array.isArray(doc)) return null;
    const { resources, items } = doc as { resources?: unknown; items?: unknown };
    const list = Array.isArray(resources) ? resources : Array.isArray(items) ? items : null;
    return list ? list.length : null;
  } catch {
    return null;
  }
}

/**
 * How many endpoints a wildcard-402 or SPA-fallback host really offers: its sitemap's URL count,
 * else its x402 manifest's resource count, else one (the canonical homepage). A sitemap cut at
 * the body cap counts the URLs read so far.
 */
export async function effectiveCount(origin: string, http: HttpClient): Promise<EffectiveCount> {
  const sitemap = await http.request(GET(origin + SITEMAP_PATH));
  const urls = sitemap.ok && sitemap.status === 200 ? countSitemapUrls(sitemap.body.toString("utf8")) : null;
  if (urls) return { count: urls, basis: "sitemap_url_count", sitemapUrlCount: urls, manifestResourceCount: null };
  const manifest = await http.request(GET(origin + MANIFEST_PATH));
  const resources = manifest.ok && manifest.status === 200 ? countManifestResources(manifest.body.toString("utf8")) : null;
  if (resources) return { count: resources, basis: "manifest_resource_count", sitemapUrlCount: urls, manifestResourceCount: resources };
  return { count: 1, basis: "canonical_homepage", sitemapUrlCount: urls, manifestResourceCount: resources };
}
