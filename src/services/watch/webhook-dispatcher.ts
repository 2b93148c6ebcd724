import type { Agent } from "undici";
import { createGuardedDispatcher, type LookupFunction } from "../../lib/ssrf-guard.js";
import { DELIVERY_CONCURRENCY, DELIVERY_TIMEOUT_MS } from "./constants.js";
import { loopbackOrPublicLookup } from "./webhook-address.js";

/**
 * The connection pool webhooks go out through. Every new connection resolves the host again
 * and refuses non-public addresses (the SSRF guard), so a name that passed the subscription
 * check and was later rebound to an internal address is still refused. ALLOW_PRIVATE_WEBHOOKS
 * lets loopback through, nothing else.
 */
export function createWebhookDispatcher(opts: { allowPrivate: boolean; lookup?: LookupFunction }): Agent {
  return createGuardedDispatcher({
    allowPrivate: opts.allowPrivate,
    connectTimeoutMs: DELIVERY_TIMEOUT_MS,
    headersTimeoutMs: DELIVERY_TIMEOUT_MS,
    bodyTimeoutMs: DELIVERY_TIMEOUT_MS,
    // As many connections per receiver host as attempts in flight: an attempt must never wait in
    // the pool behind a hanging one to the same host (customers share webhook platforms), as its
    // time-out would run out before it is even sent.
    connections: DELIVERY_CONCURRENCY,
    ...(opts.allowPrivate ? { lookup: loopbackOrPublicLookup(opts.lookup) } : opts.lookup ? { lookup: opts.lookup } : {}),
  });
}
