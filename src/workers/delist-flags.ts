import type { AppContext } from "../context.js";
import type { Task } from "./periodic.js";

/**
 * The flag-history recorder (the prober role runs it every DELIST.recordEveryMs): today's flags
 * are written on the first run of the day and topped up by later runs, so a restart loses nothing.
 */
export function flagRecorderTask(ctx: Pick<AppContext, "services" | "log">): Task<void> {
  return {
    async tick() {
      const { day, flagged } = await ctx.services.delist.recordFlags();
      ctx.log.debug({ day, flagged }, "delist flags recorded");
    },
  };
}
