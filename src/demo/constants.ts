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

/**
 * When the switching quote traps change terms, after the fleet starts. A new listing is probed
 * within 45 s of the first catalog poll and twice more 45 s apart, so the prober has read the
 * listed terms long before; its first slot probe after 15 minutes (10-minute interval) reads the switch.
 */
export const DEFAULT_QUOTE_SWITCH_MS = 15 * 60_000;

/** The one User-Agent the cloaked quote shows its listed price: Node's fetch, as @x402/fetch sends it. */
export const CLOAK_USER_AGENT = "node";

/** Where the payTo switcher sends payments after the switch: no demo provider's address. */
export const SWITCHED_PAY_TO = "0xBAd0000000000000000000000000000000000Bad";

/** A token that calls itself USDC at an address that is not the network's USDC. */
export const LOOKALIKE_USDC = { address: "0x05dc0000000000000000000000000000000005DC", name: "USDC", version: "2" } as const;

/**
 * The endpoint that dies early answers 500 from this long after its first request on: healthy
 * at first sight, failing within its first probe interval (decision 0047's case).
 */
export const DIES_EARLY_AFTER_MS = 60_000;

/** The large challenge quotes this many accepts on other chains before the listing's own. */
export const BIG_CHALLENGE_OTHER_ACCEPTS = 40;
