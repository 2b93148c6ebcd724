import type { AppContext } from "../context.js";
import { PROBE_TICK_MS } from "../services/probes/constants.js";
import { createProbeRunner, type CycleSummary, type ProberOptions } from "../services/probes/probe-runner.js";

export type { CycleSummary, ProberOptions };

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
 * The prober role: a cycle every few seconds claims whatever is due, so each listing is probed
 * at its own slot of PROBE_INTERVAL_SECONDS. Cycles never overlap; a failed cycle is logged
 * and the next one runs on schedule.
 */
export function startProber(ctx: AppContext, opts: StartProberOptions = {}): ProberHandle {
  const { db, clock, log, metrics, config } = ctx;
  const { publicBaseUrl, probeIntervalSeconds, allowPrivateTargets } = config;
  const runner = createProbeRunner({ db, clock, log, metrics, publicBaseUrl, probeIntervalSeconds, allowPrivateTargets }, opts);
  const tickMs = opts.tickMs ?? PROBE_TICK_MS;
  let chain: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const cycle = (): Promise<CycleSummary> => {
    const run = chain.then(() => {
      clearTimeout(timer);
      return runner.runCycle();
    });
    chain = run
      .catch((err: unknown) => ctx.log.error({ err, worker: "prober" }, "probe cycle failed"))
      .finally(() => {
        if (!stopped) {
          clearTimeout(timer);
          timer = setTimeout(() => void cycle().catch(() => undefined), tickMs);
        }
      });
    return run;
  };
  if (opts.runAtStart === false) timer = setTimeout(() => void cycle().catch(() => undefined), tickMs);
  else void cycle().catch(() => undefined);

  return {
    runNow() {
      if (stopped) return Promise.reject(new Error("prober is stopped"));
      return cycle();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      runner.abort();
      await chain;
      await runner.close();
    },
  };
}
