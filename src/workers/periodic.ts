import type { Logger } from "../lib/log.js";

export interface Periodic {
  /** Runs one tick now (tests and start-up), waiting for a tick already running. */
  runNow(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Runs `tick` every `intervalMs` (measured from the end of the previous tick, so ticks never
 * overlap), starting at once. A failing tick is logged and retried next interval.
 */
export function startPeriodic(name: string, intervalMs: number, tick: (signal: AbortSignal) => Promise<void>, log: Logger): Periodic {
  const abort = new AbortController();
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const run = (): Promise<void> => {
    running ??= tick(abort.signal)
      .catch((err: unknown) => log.error({ worker: name, err }, "tick failed"))
      .finally(() => {
        running = undefined;
        if (!stopped) {
          clearTimeout(timer);
          timer = setTimeout(() => void run(), intervalMs);
        }
      });
    return running;
  };
  void run();

  return {
    runNow: () => running ?? run(),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      abort.abort();
      await running;
    },
  };
}
