import dns from "node:dns";
import type { LookupAddress, LookupAllOptions } from "node:dns";
import ipaddr from "ipaddr.js";
import { isPublicAddress, SsrfBlockedError, type LookupFunction } from "../../lib/ssrf-guard.js";

/**
 * Which addresses a webhook may reach. Always: globally routed unicast (the SSRF guard's
 * isPublicAddress). With ALLOW_PRIVATE_WEBHOOKS, loopback too, for tests and demos; private
 * ranges, link-local, cloud metadata and the rest stay refused even then.
 */

const bare = (ip: string) => (ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip);

/** 127.0.0.0/8, ::1, and IPv4-mapped loopback, in any notation ipaddr.js reads. */
export function isLoopbackAddress(ip: string): boolean {
  const text = bare(ip);
  return ipaddr.isValid(text) && ipaddr.process(text).range() === "loopback";
}

export const webhookAddressAllowed = (ip: string, allowPrivate: boolean): boolean => isPublicAddress(ip) || (allowPrivate && isLoopbackAddress(ip));

export const systemLookup: LookupFunction = (hostname, options, callback) =>
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => callback(err, addresses));

/** Every address a name resolves to, through a (possibly injected) lookup. */
export function lookupAll(lookup: LookupFunction, hostname: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    lookup(hostname, { all: true }, (err, result) => {
      if (err) return reject(err);
      resolve(typeof result === "string" ? [{ address: result, family: result.includes(":") ? 6 : 4 }] : result);
    });
  });
}

/**
 * A connect-time lookup for ALLOW_PRIVATE_WEBHOOKS: like the guard's own, but loopback passes.
 * It runs for every new connection, so a name rebound to a private address is still refused.
 */
export function loopbackOrPublicLookup(base: LookupFunction = systemLookup): LookupFunction {
  return (hostname, options, callback) => {
    lookupAll(base, hostname).then(
      (addresses) => {
        const blocked = addresses.find((a) => !webhookAddressAllowed(a.address, true));
        if (blocked) return callback(new SsrfBlockedError(hostname, blocked.address), []);
        if (addresses.length === 0) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }), []);
        if ((options as LookupAllOptions).all) return callback(null, addresses);
        const first = addresses[0]!;
        return callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, []),
    );
  };
}
