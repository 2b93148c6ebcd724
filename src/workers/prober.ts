import type { AppContext } from "../context.js";
import type { CycleSummary, ProberOptions } from "../services/index.js";
import type { Task } from "./periodic.js";

/**
 * The prober's cycle as a task: endpoint probes, host checks and housekeeping in one tick. Its
 * schedule claims whatever is due every few seconds, so each listing is probed at its own slot
 * of PROBE_INTERVAL_SECONDS; cycles never overlap.
 */
export function proberTask(ctx: AppContext, opts: ProberOptions = {}): Task<CycleSummary> {
  const runner = ctx.services.probes.runner(opts, ctx.log);
  return { tick: () => runner.runCycle(), abort: () => runner.abort(), close: () => runner.close() };
}
