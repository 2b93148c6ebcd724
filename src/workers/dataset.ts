import type { AppContext } from "../context.js";
import type { Task } from "./periodic.js";

/** The weekly snapshot: checked every DATASET.checkEveryMs, built when a week has passed. */
export function datasetTask(ctx: Pick<AppContext, "services">): Task<void> {
  return { tick: async () => void (await ctx.services.dataset.buildIfDue()) };
}
