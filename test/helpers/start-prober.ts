import type { AppContext } from "../../src/context.js";
import { PROBE_TICK_MS, type CycleSummary, type ProberOptions } from "../../src/services/index.js";
import { startTask, type Periodic } from "../../src/workers/periodic.js";
import { proberTask } from "../../src/workers/prober.js";
import { VERDICT_RECOMPUTE_MS, verdictsTask } from "../../src/workers/verdicts.js";

export interface ProberHandle {
  /** Runs a cycle after the one in progress (if any) and returns its summary. */
  runNow(): Promise<CycleSummary>;
  /** Stops claiming, lets requests already sent finish and be stored, hands queued work back. */
  stop(): Promise<void>;
}

export interface StartProberOptions extends ProberOptions {
  /** Pause between the end of a cycle and the next (default PROBE_TICK_MS). */
  tickMs?: number;
  /** Run the first cycle at once (default) or only after the first tick or runNow(). */
  runAtStart?: boolean;
}

/**
 * The prober role in one call (tests, benchmarks): a cycle every few seconds claims whatever is
 * due, so each listing is probed at its own slot of PROBE_INTERVAL_SECONDS. Cycles never overlap;
 * a failed cycle is logged and the next one runs on schedule.
 */
export function startProber(ctx: AppContext, opts: StartProberOptions = {}): ProberHandle {
  const task = startTask("prober", opts.tickMs ?? PROBE_TICK_MS, proberTask(ctx, opts), ctx.log, { runAtStart: opts.runAtStart });
  let stopped = false;
  return {
    runNow() {
      if (stopped) return Promise.reject(new Error("prober is stopped"));
      return task.runNext();
    },
    stop() {
      stopped = true;
      return task.stop();
    },
  };
}

/** The catalog-wide verdict recompute on its own schedule, as the prober role runs it (benchmarks). */
export const startVerdicts = (ctx: AppContext): Periodic<void> =>
  startTask("verdicts", VERDICT_RECOMPUTE_MS, verdictsTask(ctx), ctx.log.child({ worker: "verdicts" }));
