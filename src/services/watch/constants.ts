import type { WarningCode } from "../signals/constants.js";

/**
 * Every number that shapes watches and webhook delivery, in one place. docs/webhooks.md
 * explains each; change one only together with that page.
 */

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;

// ---- subscriptions (spec 2.11, 3.2, 8) -----------------------------------------------------

export const WATCH_LIFETIME_MS = 30 * DAY;
export const WATCH_ALERTS = 100;
export const MAX_SIGNALS = 20;
export const DEFAULT_SIGNALS: readonly WarningCode[] = ["dead", "zombie", "decoy_price_extreme"];
/** Deliveries listed by the status route, newest first. */
export const STATUS_DELIVERIES = 10;
export const MAX_WEBHOOK_URL_LENGTH = 2048;
/** Budget of the DNS check at subscription; a resolver slower than this answers 503. */
export const SUBSCRIBE_DNS_TIMEOUT_MS = 3 * SECOND;

// ---- secrets -------------------------------------------------------------------------------

/** The shown secret is this many random bytes, as lower-case hex. */
export const SECRET_BYTES = 32;
/** HKDF-SHA256 info that turns the shown secret into the Standard Webhooks signing key. */
export const SIGNING_KEY_INFO = "x402-lookout watch webhook signing v1";

// ---- delivery ------------------------------------------------------------------------------

/** Whole budget of one delivery attempt: connect, headers and body. */
export const DELIVERY_TIMEOUT_MS = 5 * SECOND;
/**
 * Wait before attempt n+1 after attempt n failed (the first attempt goes out at once), so an
 * alert is tried 6 times over about 43 minutes before it is marked failed.
 */
export const RETRY_DELAYS_MS: readonly number[] = [5 * SECOND, 30 * SECOND, 2 * MINUTE, 10 * MINUTE, 30 * MINUTE];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** Each delay is scaled by a random factor in [1 - JITTER, 1 + JITTER], so retries spread out. */
export const RETRY_JITTER = 0.25;
/**
 * How long a claimed delivery belongs to one alerter. Far above one attempt's budget, so a live
 * process always records its attempt before another may take the delivery over.
 */
export const DELIVERY_LEASE_MS = 60 * SECOND;
/** Attempts in flight per alerter process; a hanging receiver holds one slot for at most the timeout. */
export const DELIVERY_CONCURRENCY = 16;
/** Attempts one tick makes at most, so a tick always ends. */
export const DELIVERIES_PER_TICK = 1000;
/** Response bytes read (and discarded) before the connection is let go. */
export const RESPONSE_BODY_CAP_BYTES = 4 * 1024;
/** Error text kept per delivery. */
export const LAST_ERROR_CHARS = 300;
export const DELIVERY_USER_AGENT = "x402-lookout-webhooks/0.1";

// ---- alerter -------------------------------------------------------------------------------

/** Pause between alerter ticks (evaluate transitions, then deliver what is due). */
export const ALERTER_TICK_MS = 2 * SECOND;
/** Transaction-scoped advisory lock: one process evaluates transitions at a time. */
export const EVALUATE_LOCK_KEY = 4_020_402_402_007;
