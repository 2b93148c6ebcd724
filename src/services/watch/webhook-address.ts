import dns from "node:dns";
import type { LookupAddress, LookupAllOptions } from "node:dns";
import { webhookAddressAllowed } from "../../contracts/watch/webhook-url.js";
import { SsrfBlockedError, type LookupFunction } from "../../lib/ssrf-guard.js";

/**
 * Which addresses a webhook may reach: the rule the request schema applies to literals
 * (src/contracts), applied here again to every address a name resolves to.
 */
export { isLocalhostName, webhookAddressAllowed } from "../../contracts/watch/webhook-url.js";

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
