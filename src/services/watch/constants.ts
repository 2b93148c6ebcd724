// What a caller sees (limits, the delivery schedule) is wire vocabulary, in packages/contracts.
export {
  DEFAULT_SIGNALS,
  DELIVERY_TIMEOUT_MS,
  LEFT_CATALOG,
  MAX_ATTEMPTS,
  MAX_SIGNALS,
  MAX_WEBHOOK_URL_LENGTH,
  RETRY_DELAYS_MS,
  RETRY_JITTER,
} from "@x402-lookout/contracts/watch/limits";

/**
 * Every number that shapes watches and webhook delivery, in one place. docs/webhooks.md
 * explains each; change one only together with that page.
 */

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;

// ---- subscriptions (/spec#watch, docs/webhooks.md "Quota and expiry") -----------------------

export const WATCH_LIFETIME_MS = 30 * DAY;
export const WATCH_ALERTS = 100;
/** Deliveries listed by the status route, newest first. */
export const STATUS_DELIVERIES = 10;
/** Budget of the DNS check at subscription; a resolver slower than this answers 503. */
export const SUBSCRIBE_DNS_TIMEOUT_MS = 3 * SECOND;

// ---- secrets -------------------------------------------------------------------------------

/** The shown secret is this many random bytes, as lower-case hex. */
export const SECRET_BYTES = 32;
/** HKDF-SHA256 info that turns the shown secret into the Standard Webhooks signing key. */
export const SIGNING_KEY_INFO = "x402-lookout watch webhook signing v1";

// ---- delivery ------------------------------------------------------------------------------

/**
 * How long a claimed delivery belongs to one alerter. Far above one attempt's budget, so a live
 * process always records its attempt before another may take the delivery over.
 */
export const DELIVERY_LEASE_MS = 60 * SECOND;
/** Attempts in flight per alerter process; a hanging receiver holds one slot for at most the timeout. */
export const DELIVERY_CONCURRENCY = 16;
/** Attempts in flight for one customer (the paying wallet), all its watches and hosts together, per alerter process. */
export const DELIVERY_PER_CUSTOMER = 4;
/** Attempts in flight to one receiver host (all watches together), per alerter process; one customer takes at most all but one. */
export const DELIVERY_PER_HOST = 2;
/** Attempts started per receiver host (all watches together), per alerter process: a burst, then a steady rate. */
export const DELIVERY_HOST_RATE = { capacity: 10, perSecond: 5 };
/** Receiver hosts whose rate is remembered; past it the least recently used starts a fresh burst. */
export const DELIVERY_HOSTS_TRACKED = 10_000;
/** How often the delivery loop looks for due alerts (a finished attempt looks again at once). */
export const DELIVERY_POLL_MS = 500;
/** Response bytes read (and discarded) before the connection is let go. */
export const RESPONSE_BODY_CAP_BYTES = 4 * 1024;
/** Error text kept per delivery. */
export const LAST_ERROR_CHARS = 300;
export const DELIVERY_USER_AGENT = "x402-lookout-webhooks/0.1";

// ---- alerter -------------------------------------------------------------------------------

/** Pause between evaluations (signal changes into the delivery queue); delivery runs on its own loop. */
export const ALERTER_TICK_MS = 2 * SECOND;
