/**
 * The evidence pipeline, in one place: the probe record (probe-record), whoever took it, is
 * stored raw (insert-probes) and rolled into hourly buckets with latency histograms (rollup,
 * rollup-sql, latency-histogram), kept for its windows (constants, retention), folded into each
 * listing's snapshot (snapshots, snapshot-sql), and judged into the one stored verdict (verdicts:
 * the full pass and the incremental update; verdict: judge, the one caller of the rule table,
 * and the read model every product goes through), held for another vantage's probe (vantages,
 * vantage-gate).
 */
export * from "./constants.js";
export { insertNewProbes, probesInsert, quoteDigests } from "./insert-probes.js";
export type { ProbeRecord } from "./probe-record.js";
export { refreshEvidence } from "./refresh.js";
export { pruneProbeHistory, type RetentionOptions, type RetentionResult } from "./retention.js";
export { hourBucket, rollupAdded, rollupListings, rollupProbes } from "./rollup.js";
export { createVerdictsService, type VerdictsDeps, type VerdictsService } from "./service.js";
export { recomputeSnapshots, type SnapshotContext } from "./snapshots.js";
export { firedOf, judge, viewOf, type StoredVerdict } from "./verdict.js";
export { isGhost } from "./verdict-write.js";
export { recomputeVerdicts, updateVerdicts } from "./verdicts.js";
export { DEFAULT_VANTAGE, markVantageCycle, VANTAGE_CONFIRM_LEASE_MS } from "./vantages.js";
