/**
 * Every number that shapes the demo fleet, in one place. The fleet is a fixture for demos and
 * tests, so these are about teaching and test speed, not about production behaviour.
 */

/** A slow endpoint must sit above the 2000 ms `slow` threshold of signals.md with margin. */
export const DEFAULT_SLOW_MS = 2_500;

/**
 * Length of each phase of the flapping endpoint: 40 minutes up, then 40 minutes down. Each down
 * phase holds three failed probes in a row (its slot probe and two confirmations 45 s apart), so
 * it fires `dead`, and the first healthy probe of each up phase clears it.
 */
export const DEFAULT_FLAP_PERIOD_MS = 40 * 60_000;

export const DEFAULT_HOST = "127.0.0.1";

/** Where the x402 Bazaar serves its listing (CDP and x402.org facilitators use this path). */
export const CATALOG_PATH = "/discovery/resources";
export const CATALOG_DEFAULT_LIMIT = 100;
export const CATALOG_MAX_LIMIT = 1_000;

/** The value every challenge in the spec carries; the SDK's own default too. */
export const MAX_TIMEOUT_SECONDS = 300;

/** Servers wait this long for in-flight requests (a slow one included) before cutting them. */
export const STOP_GRACE_MS = 1_000;

/** Resellers charge at least this multiple of the upstream price (signals.md proxy_markup). */
export const RESELLER_MIN_MARKUP = 3;

/** The reseller refuses to call an upstream that takes longer than this. */
export const RESELLER_UPSTREAM_TIMEOUT_MS = 15_000;
