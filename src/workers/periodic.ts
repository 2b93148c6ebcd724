import type { Logger } from "../lib/log.js";

/** What a periodic task does each tick, and how it lets go when the process stops. */
export interface Task<T = unknown> {
  tick(signal: AbortSignal): Promise<T>;
  /** Called at stop, before the tick in progress is awaited (stop claiming, cancel waits). */
  abort?(): void;
  /** Called after the last tick (close connections). */
  close?(): Promise<void>;
}

export interface Periodic<T = void> {
  /** Joins the tick in progress, or runs one now; undefined when that tick failed (it is logged). */
  runNow(): Promise<T | undefined>;
  /** Runs a tick that starts after this call (after the one in progress) and returns its result. */
  runNext(): Promise<T>;
  /** No tick starts after this; the running one is aborted and awaited, then the task closes. */
  stop(): Promise<void>;
}

/**
 * The one runtime of background work: runs `task` every `intervalMs`, measured from the end of
 * the previous tick, so ticks never overlap. The first tick runs at once unless `runAtStart` is
 * false. A failing tick is logged and the next one runs on schedule.
 */
export function startTask<T>(name: string, intervalMs: number, task: Task<T>, log: Logger, opts: { runAtStart?: boolean } = {}): Periodic<T> {
  const abort = new AbortController();
  let chain: Promise<unknown> = Promise.resolve();
  let latest: Promise<T | undefined> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let stopping: Promise<void> | undefined;

  const runNext = (): Promise<T> => {
    const run = chain.then(() => {
      clearTimeout(timer);
      return task.tick(abort.signal);
    });
    const settled: Promise<T | undefined> = run
      .catch((err: unknown) => void log.error({ worker: name, err }, "tick failed"))
      .finally(() => {
        if (latest === settled) latest = undefined;
        if (!stopped) {
          clearTimeout(timer);
          timer = setTimeout(() => void runNow(), intervalMs);
        }
      });
    latest = settled;
    chain = settled;
    return run;
  };
  const runNow = () => latest ?? (runNext(), latest!);
  if (opts.runAtStart === false) timer = setTimeout(() => void runNow(), intervalMs);
  else void runNow();

  return {
    runNow,
    runNext,
    stop: () =>
      (stopping ??= (async () => {
        stopped = true;
        clearTimeout(timer);
        abort.abort();
        task.abort?.();
        await chain;
        await task.close?.();
      })()),
  };
}
