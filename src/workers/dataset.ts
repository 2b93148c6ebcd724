import type { AppContext } from "../context.js";
import type { Task } from "./periodic.js";

/**
 * The weekly snapshot: checked every DATASET.checkEveryMs, built when due. A tick before the
 * process has fully started (every role up) does nothing, so a start-up that fails and shuts
 * down never publishes a snapshot; the first real check comes an interval later.
 */
export function datasetTask(ctx: Pick<AppContext, "services" | "readiness">): Task<void> {
  return {
    tick: async () => {
      if (!ctx.readiness.ready) return;
      await ctx.services.dataset.buildIfDue();
    },
  };
}
