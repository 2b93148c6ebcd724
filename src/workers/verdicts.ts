import type { AppContext } from "../context.js";
import { LOCKS, runExclusive } from "../db/jobs/exclusive.js";
import type { Task } from "./periodic.js";

/** Verdicts follow the probes: recomputed every half minute, from snapshots the prober refreshes. */
export const VERDICT_RECOMPUTE_MS = 30_000;

/**
 * The catalog-wide verdict recompute. With several prober processes on PostgreSQL one of them
 * does it per round and the others skip (runExclusive).
 */
export function verdictsTask(ctx: Pick<AppContext, "db" | "services" | "log">): Task<void> {
  const log = ctx.log.child({ worker: "verdicts" });
  return {
    async tick() {
      await runExclusive(ctx.db, LOCKS.verdictRecompute, async (db) => log.info(await ctx.services.verdicts.recompute(db), "verdicts recomputed"));
    },
  };
}
