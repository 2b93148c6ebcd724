import type { WarningCode } from "../codes.js";

/** The watch limits a caller sees: signals per watch, URL length and the delivery schedule (docs/webhooks.md). */
export const MAX_SIGNALS = 20;
export const DEFAULT_SIGNALS: readonly WarningCode[] = ["dead", "zombie", "decoy_price_extreme"];
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** Whole budget of one delivery attempt: connect, headers and body. */
export const DELIVERY_TIMEOUT_MS = 5_000;
/**
 * Wait before attempt n+1 after attempt n failed (the first attempt goes out at once), so an
 * alert is tried 6 times over about 43 minutes before it is marked failed.
 */
export const RETRY_DELAYS_MS: readonly number[] = [5_000, 30_000, 2 * 60_000, 10 * 60_000, 30 * 60_000];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** Each delay is scaled by a random factor in [1 - JITTER, 1 + JITTER], so retries spread out. */
export const RETRY_JITTER = 0.25;

/**
 * The signal every watch hears without subscribing (decision 0039): `fired` when the watched
 * listing leaves the catalog, `cleared` when it is listed again. Not a warning code.
 */
export const LEFT_CATALOG = "left_catalog";
