import { sql } from "kysely";
import type { AppContext } from "../context.js";
import { recomputeVerdicts } from "../services/signals/recompute-verdicts.js";
import { startPeriodic, type Periodic } from "./periodic.js";

/** Verdicts follow the probes: recomputed every half minute, from snapshots the prober refreshes. */
export const VERDICT_RECOMPUTE_MS = 30_000;
/** Any fixed 64-bit key; names the "recompute verdicts" job among advisory locks. */
const LOCK_KEY = 402_000_001;

/**
 * The catalog-wide verdict recompute. With several prober processes on PostgreSQL one of them
 * does it per round (a transaction-level advisory lock; the others skip); PGlite has one process.
 */
export function startVerdicts(ctx: AppContext): Periodic {
  const log = ctx.log.child({ worker: "verdicts" });
  return startPeriodic(
    "verdicts",
    VERDICT_RECOMPUTE_MS,
    async () => {
      const now = ctx.clock.now();
      if (ctx.db.dialect === "pglite") {
        log.info(await recomputeVerdicts(ctx.db.db, now), "verdicts recomputed");
        return;
      }
      await ctx.db.db.transaction().execute(async (tx) => {
        const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(${LOCK_KEY}) as locked`.execute(tx);
        if (!rows[0]?.locked) return;
        log.info(await recomputeVerdicts(tx, now), "verdicts recomputed");
      });
    },
    log,
  );
}
