import type { Logger } from "./log.js";

/**
 * Everything started is registered with how to stop it; shutdown stops in reverse order, once,
 * each step bounded so one stuck part cannot keep the process (or its anvil child) alive.
 */
export class Lifecycle {
  private readonly steps: Array<{ name: string; stop: () => Promise<void> | void }> = [];
  private stopping: Promise<void> | undefined;

  constructor(private readonly log: Logger) {}

  /** A part registered once shutdown has begun (a start still finishing a step) is stopped at once. */
  add(name: string, stop: () => Promise<void> | void): void {
    if (this.stopping) void this.stopStep({ name, stop }, 15_000);
    else this.steps.push({ name, stop });
  }

  shutdown(reason: string, stepTimeoutMs = 15_000): Promise<void> {
    this.stopping ??= (async () => {
      this.log.info({ reason }, "shutting down");
      for (const step of [...this.steps].reverse()) await this.stopStep(step, stepTimeoutMs);
      this.log.info("stopped");
    })();
    return this.stopping;
  }

  private async stopStep(step: { name: string; stop: () => Promise<void> | void }, timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        Promise.resolve().then(step.stop),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`did not stop within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
      this.log.debug({ step: step.name }, "stopped");
    } catch (err) {
      this.log.error({ step: step.name, err }, "stop failed");
    } finally {
      clearTimeout(timer);
    }
  }
}
