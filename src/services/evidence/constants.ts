import { RETENTION_MS } from "../../db/retention.js";

/**
 * The windows of the probe record: how long raw probes and hourly rollups are kept, and the
 * windows the snapshots read them in. docs/probing.md explains each; change one only with it.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

// ---- history -------------------------------------------------------------------------------

/** Raw probes: the 30 min and 1 h windows plus re-rolling the open hour (src/db/retention.ts). */
export const RAW_PROBE_RETENTION_MS = RETENTION_MS.probes;
/** Hourly rollups: 7-day forensics and 48 h recovery plus a day of slack (src/db/retention.ts). */
export const ROLLUP_RETENTION_MS = RETENTION_MS.probe_hourly;
/** Retention runs this often, deleting at most RETENTION_MAX_BATCHES x RETENTION_BATCH_SIZE rows per table. */
export const RETENTION_INTERVAL_MS = 5 * MINUTE;
export const RETENTION_BATCH_SIZE = 5_000;
export const RETENTION_MAX_BATCHES = 40;

// ---- snapshots -----------------------------------------------------------------------------

/** Listings recomputed per statement. */
export const SNAPSHOT_BATCH_SIZE = 2_000;
export const WINDOW_30M_MS = 30 * MINUTE;
/** A run of failed probes is counted up to this length; dead needs far fewer. */
export const FAIL_STREAK_CAP = 10;
export const WINDOW_1H_MS = 1 * HOUR;
/** Hourly buckets (the open hour included) behind the 48 h and 7 d figures. */
export const BUCKETS_48H = 48;
export const BUCKETS_7D = 168;
