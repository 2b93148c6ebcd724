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

/** localhost, 127.0.0.0/8 or ::1 (also IPv4-mapped), as the WHATWG URL parser normalizes them. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host === "::1") return true;
  const v4 = /^(?:::ffff:)?(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host);
  if (v4) return v4[1] === "127" && v4.slice(2).every((n) => Number(n) <= 255);
  // new URL() writes an IPv4-mapped address in hex: ::ffff:7f00:1 is 127.0.0.1.
  const mapped = /^::ffff:([0-9a-f]{1,4}):[0-9a-f]{1,4}$/.exec(host);
  return mapped !== null && parseInt(mapped[1]!, 16) >> 8 === 127;
}
