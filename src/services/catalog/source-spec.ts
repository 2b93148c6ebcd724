import { normalizeUrl } from "../../lib/url-normalize.js";
import type { CatalogSourceKind } from "../../db/schema.js";

/** A catalog source: a stable id, the address polled now, and its format. */
export interface CatalogSource {
  id: string;
  url: string;
  kind: CatalogSourceKind;
}

/** The host of Coinbase CDP's discovery API (test/fixtures/catalogs/cdp): the catalog the delist feed's `cdp_listed` names. */
export const CDP_CATALOG_HOST = "api.cdp.coinbase.com";

/** Whether a source is CDP's own catalog: a discovery API on CDP's host, whatever its id (decision 0038). */
export function isCdpCatalog(source: { url: string; kind: CatalogSourceKind }): boolean {
  if (source.kind !== "bazaar" || !URL.canParse(source.url)) return false;
  return new URL(source.url).hostname.toLowerCase() === CDP_CATALOG_HOST;
}

/** The demo fleet's source id: its catalog moves to new ports on every start, its identity does not. */
export const DEMO_SOURCE_ID = "demo";

// `name=https://...`: an explicit id; a URL alone is its own id. A URL never starts with `name=`.
const NAMED = /^([a-z0-9][a-z0-9._-]{0,63})=(https?:\/\/.+)$/i;

/**
 * A configured source from its CATALOG_URLS entry: `https://host/path` (id: the normalised URL)
 * or `id=https://host/path` (docs/catalog.md). A spec already parsed passes through.
 */
export function sourceOf(entry: string | CatalogSource): CatalogSource {
  if (typeof entry !== "string") return entry;
  const named = NAMED.exec(entry);
  if (named) return { id: named[1]!.toLowerCase(), url: named[2]!, kind: "bazaar" };
  return { id: normalizeUrl(entry), url: entry, kind: "bazaar" };
}

/** The configured sources, one per id (the first entry of an id wins). */
export function sourcesOf(entries: ReadonlyArray<string | CatalogSource>): CatalogSource[] {
  const byId = new Map<string, CatalogSource>();
  for (const s of entries.map(sourceOf)) if (!byId.has(s.id)) byId.set(s.id, s);
  return [...byId.values()];
}

/** The entry that names the demo's catalog with the demo's fixed id. */
export const demoSourceEntry = (catalogUrl: string): string => `${DEMO_SOURCE_ID}=${catalogUrl}`;
