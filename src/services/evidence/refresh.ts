import type { DbHandle } from "../../db/client.js";
import type { Clock } from "../../lib/clock.js";
import { recomputeSnapshots } from "./snapshots.js";
import { updateVerdicts } from "./verdicts.js";

/** After probes of `listingIds` were stored: their snapshots, then their stored verdicts, at once. */
export async function refreshEvidence(ctx: { db: DbHandle; clock: Clock }, listingIds: readonly number[]): Promise<{ snapshots: number; verdicts: number }> {
  const snapshots = await recomputeSnapshots(ctx, listingIds);
  const verdicts = await updateVerdicts(ctx.db, listingIds, ctx.clock.now());
  return { snapshots, verdicts };
}
