import { createHash } from "node:crypto";
import { parse } from "tldts";
import { MAX_SERVICE_ID_CHARS } from "./constants.js";

/**
 * Group keys of signals.md. `service` is the listing's service name, else its origin; its id
 * is a slug, so the same name gives the same id in every poll and every process.
 */
export function serviceIdOf(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/^https?:\/\//, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_SERVICE_ID_CHARS)
    .replace(/-+$/, "");
  // Names without a single latin letter or digit (e.g. all CJK) still need a stable id.
  return slug || `svc-${createHash("sha256").update(name).digest("hex").slice(0, 12)}`;
}

/**
 * The registrable domain of a URL's host (private suffixes such as vercel.app count as public
 * ones: x.vercel.app and y.vercel.app belong to different people). IP addresses and
 * single-label hosts such as localhost have none: the host itself (with its port, which is
 * what tells two servers on one machine apart) stands in.
 */
export function domainOf(url: string): string {
  const u = new URL(url);
  const parsed = parse(u.hostname, { allowPrivateDomains: true });
  if (parsed.isIp || !parsed.domain) return u.host;
  return parsed.domain;
}

/** The billing namespace: one payee on one network, as a CAIP-10 account id. */
export function providerIdOf(network: string, payTo: string): string {
  return `${network}:${payTo}`;
}
