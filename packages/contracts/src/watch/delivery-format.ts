import { DELIVERY_TIMEOUT_MS, MAX_ATTEMPTS, RETRY_DELAYS_MS, RETRY_JITTER } from "./limits.js";

const human = (ms: number) => (ms < 60_000 ? `${ms / 1000} s` : `${ms / 60_000} min`);

/** What the creation answer tells a receiver about alerts; docs/webhooks.md has the long form. */
export const DELIVERY_FORMAT = {
  format: "Standard Webhooks v1 (HMAC-SHA256), JSON body",
  method: "POST" as const,
  headers: [
    "content-type: application/json",
    "webhook-id: <alert id, the same on every attempt>",
    "webhook-timestamp: <unix seconds of this attempt>",
    "webhook-signature: v1,<base64 HMAC-SHA256>",
  ],
  payload: {
    type: "watch.signal.fired or watch.signal.cleared",
    watchId: "the watch",
    url: "the watched URL as subscribed",
    signal: "the warning code that changed, or left_catalog (every watch: fired when the listing leaves the catalog, cleared when it returns)",
    state: "fired or cleared",
    evidence: "the numbers the signal was decided on, with the threshold they were held against",
    firedAt: "when the change was detected (ISO 8601)",
    alertsRemaining: "alerts left on the watch after this one",
  },
  verify:
    "webhook-signature is v1,<base64 HMAC-SHA256(key = the secret string, message = webhook-id + '.' + webhook-timestamp + '.' + raw body)>; or new Webhook(signingSecret).verify(rawBody, headers) with the standardwebhooks library (signingSecret = whsec_ + base64 of the secret's bytes). Deduplicate on webhook-id.",
  retries: `any 2xx is delivered; otherwise up to ${MAX_ATTEMPTS} attempts: at once, then after ${RETRY_DELAYS_MS.map(human).join(", ")} (±${RETRY_JITTER * 100}% jitter), then failed. Timeout ${human(DELIVERY_TIMEOUT_MS)} per attempt; redirects are not followed. One alert per change of state, alerts of one watch in order.`,
};
