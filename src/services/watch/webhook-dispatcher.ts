import type { Agent } from "undici";
import { createGuardedDispatcher, type LookupFunction } from "../../lib/ssrf-guard.js";
import { DELIVERY_TIMEOUT_MS } from "./constants.js";
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
    connections: 2,
    ...(opts.allowPrivate ? { lookup: loopbackOrPublicLookup(opts.lookup) } : opts.lookup ? { lookup: opts.lookup } : {}),
  });
}
