import ipaddr from "ipaddr.js";

/**
 * The service's base address, checked: https, or http on a loopback address (a local service).
 * Payments and bearer secrets (credit ids, watch secrets) never travel in clear text off the
 * machine. No user info, query or fragment; a path prefix is kept, without its trailing slash.
 */
export function checkedBaseUrl(raw: string): string {
  if (!URL.canParse(raw)) throw new TypeError(`base URL ${JSON.stringify(raw)} is not an absolute URL`);
  const u = new URL(raw);
  if (u.username || u.password) throw new TypeError("base URL must not carry a user name or password");
  if (u.search || u.hash) throw new TypeError("base URL must not carry a query or fragment");
  if (u.protocol !== "https:" && !(u.protocol === "http:" && isLoopback(u.hostname))) {
    throw new TypeError(`base URL must be https, or http on a loopback address; got ${u.origin}`);
  }
  return `${u.origin}${u.pathname.replace(/\/+$/, "")}`;
}

export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost") return true;
  return ipaddr.isValid(host) && ipaddr.parse(host).range() === "loopback";
}
