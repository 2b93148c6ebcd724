import type { DbHandle } from "../../db/client.js";
import type { Clock } from "../../lib/clock.js";
import { recomputeSnapshots } from "./snapshots.js";
import { updateVerdicts } from "./verdicts.js";

/**
 * The evidence pipeline, in one place: raw probes (insert-probes) roll into hourly buckets with
 * latency histograms (rollup, fold-hourly, latency-histogram), fold into each listing's snapshot
 * (snapshots, snapshot-sql), and are judged into the one stored verdict (verdicts: the full pass
 * and the incremental update; verdict: judge, the one caller of the rule table, and the read
 * model every product goes through).
 */
export * from "./constants.js";
export { foldIntoHourly } from "./fold-hourly.js";
export { insertNewProbes, probesInsert, type ProbeRow } from "./insert-probes.js";
export { hourBucket, rollupListings, rollupProbes } from "./rollup.js";
export { pruneProbeHistory, type RetentionOptions, type RetentionResult } from "./retention.js";
export { recomputeSnapshots, type SnapshotContext } from "./snapshots.js";
export { firedOf, judge, viewOf, type StoredVerdict } from "./verdict.js";
export { isGhost } from "./verdict-write.js";
export { recomputeVerdicts, updateVerdicts } from "./verdicts.js";

/** After probes of `listingIds` were stored: their snapshots, then their stored verdicts, at once. */
export async function refreshEvidence(ctx: { db: DbHandle; clock: Clock }, listingIds: readonly number[]): Promise<{ snapshots: number; verdicts: number }> {
  const snapshots = await recomputeSnapshots(ctx, listingIds);
  const verdicts = await updateVerdicts(ctx.db, listingIds, ctx.clock.now());
  return { snapshots, verdicts };
}
