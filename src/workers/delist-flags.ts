import type { AppContext } from "../context.js";
import { DELIST } from "../services/delist/constants.js";
import { recordDailyFlags } from "../services/delist/record-flags.js";
import { startPeriodic, type Periodic } from "./periodic.js";

/**
 * The flag-history recorder as a periodic task (the prober role runs it): today's flags are
 * written on the first run of the day and topped up by later runs, so a restart loses nothing.
 */
export function startFlagRecorder(ctx: Pick<AppContext, "db" | "clock" | "log">, intervalMs: number = DELIST.recordEveryMs): Periodic {
  return startPeriodic(
    "delist-flags",
    intervalMs,
    async () => {
      const { day, flagged } = await recordDailyFlags(ctx);
      ctx.log.debug({ day, flagged }, "delist flags recorded");
    },
    ctx.log,
  );
}
