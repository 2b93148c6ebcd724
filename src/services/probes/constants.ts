/**
 * Every number that shapes probing, in one place. docs/probing.md explains each; change one
 * only together with that page. How long probes are kept and the windows they are read in are
 * evidence's (src/services/evidence/constants.ts).
 */

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

// ---- one request ---------------------------------------------------------------------------

/** Whole budget of one probe request: connect, headers and body (signals.md). */
export const PROBE_TIMEOUT_MS = 10 * SECOND;
/** Response bytes read before the body is cut off (signals.md). */
export const PROBE_BODY_CAP_BYTES = 256 * 1024;
/**
 * Largest response header block read: a PAYMENT-REQUIRED of up to 128 KiB (what x402scan reads;
 * many accepts and a Bazaar extension with schemas) beside 16 KiB, Node's default, for the rest.
 * Larger is a protocol error; docs/probing.md bounds the memory this costs per probe and cycle.
 */
export const MAX_RESPONSE_HEADER_BYTES = (128 + 16) * 1024;
/** Idle keep-alive sockets are closed after this; a host is probed again minutes later anyway. */
export const KEEP_ALIVE_TIMEOUT_MS = 4 * SECOND;

// ---- politeness ----------------------------------------------------------------------------

/** Requests in flight across all hosts: bounds sockets and memory of one prober process. */
export const GLOBAL_CONCURRENCY = 256;
/** Requests in flight to one host (host = URL.host, i.e. host:port). */
export const PER_HOST_CONCURRENCY = 4;
/** Requests started per second per host, and the bucket size that allows a short burst. */
export const PER_HOST_RATE_PER_SECOND = 10;
export const PER_HOST_BURST = 10;

// ---- scheduling ----------------------------------------------------------------------------

/** How often the worker looks for due work; probes spread over the interval at this grain. */
export const PROBE_TICK_MS = 2 * SECOND;
/**
 * Confirmation probes (decisions 0014, 0047): a new listing, and one whose newest answers are a
 * run of failures shorter than `dead` needs, is probed again this soon, so `dead` (3 failures in
 * a row) is reached two confirmation intervals after the first failure, whatever came before.
 */
export const CONFIRM_INTERVAL_MS = 45 * SECOND;
/** Answered probes a new listing gets at CONFIRM_INTERVAL_MS before it joins its slot. */
export const CONFIRM_PROBES = 3;
/** Listings claimed per statement; larger batches amortise per-statement costs (docs/probing.md). */
export const CLAIM_BATCH_SIZE = 1000;
/** A claim looks this many times its size ahead in the schedule to spread itself over hosts. */
export const CLAIM_SCAN_FACTOR = 4;
/** Claimed but unfinished jobs held by one process; claiming pauses above it. */
export const MAX_PENDING_JOBS = 4_096;
/**
 * Jobs of one host taken per claim, and the pending count at which a host is left out of the
 * next claim (so at most about twice this many wait per host).
 */
export const MAX_PENDING_PER_HOST = 20;
/** When only saturated hosts have due work, the pause before claiming again (batches claims). */
export const CLAIM_PAUSE_MS = 50;
/** A claim expires after this; another process then takes the work over. */
export const LEASE_MS = 5 * MINUTE;
/**
 * An endpoint claim lasts one probe interval, within [MIN_ENDPOINT_LEASE_MS, LEASE_MS]: a prober
 * that dies holding work has it taken over within one interval, and a lease always outlasts a
 * probe's whole budget several times over, so live work is never taken twice.
 */
export const MIN_ENDPOINT_LEASE_MS = 3 * PROBE_TIMEOUT_MS;
export const endpointLeaseMs = (intervalMs: number) => Math.min(LEASE_MS, Math.max(MIN_ENDPOINT_LEASE_MS, intervalMs));
/** Results written per statement, and the longest a finished result waits to be written. */
export const WRITE_BATCH_SIZE = 1000;
export const WRITE_FLUSH_MS = 1 * SECOND;

// ---- host checks ---------------------------------------------------------------------------

/** A host is checked on first sight and then this often (signals.md: once a day). */
export const HOST_CHECK_INTERVAL_MS = 24 * HOUR;
/** A check that could not reach the host is retried sooner. */
export const HOST_CHECK_RETRY_MS = 1 * HOUR;
/** Random non-catalog paths requested per check (signals.md: two). */
export const HOST_CHECK_RANDOM_PATHS = 2;
export const HOST_CHECK_PATH_PREFIX = "/__lookout_probe_";
/** How often the hosts of active listings are compared with host_checks to find new ones. */
export const HOST_DISCOVERY_INTERVAL_MS = 1 * MINUTE;
export const HOST_CHECK_CLAIM_BATCH_SIZE = 50;
export const SITEMAP_PATH = "/sitemap.xml";
export const MANIFEST_PATH = "/.well-known/x402";
