import type { Logger } from "./log.js";

/**
 * Everything started is registered with how to stop it; shutdown stops in reverse order, once,
 * each step bounded so one stuck part cannot keep the process (or its anvil child) alive.
 */
export class Lifecycle {
  private readonly steps: Array<{ name: string; stop: () => Promise<void> | void }> = [];
  private stopping: Promise<void> | undefined;

  constructor(private readonly log: Logger) {}

  add(name: string, stop: () => Promise<void> | void): void {
    this.steps.push({ name, stop });
  }

  shutdown(reason: string, stepTimeoutMs = 15_000): Promise<void> {
    this.stopping ??= (async () => {
      this.log.info({ reason }, "shutting down");
      for (const step of [...this.steps].reverse()) {
        let timer: NodeJS.Timeout | undefined;
        try {
          await Promise.race([
            Promise.resolve().then(step.stop),
            new Promise((_, reject) => {
              timer = setTimeout(() => reject(new Error(`did not stop within ${stepTimeoutMs} ms`)), stepTimeoutMs);
            }),
          ]);
          this.log.debug({ step: step.name }, "stopped");
        } catch (err) {
          this.log.error({ step: step.name, err }, "stop failed");
        } finally {
          clearTimeout(timer);
        }
      }
      this.log.info("stopped");
    })();
    return this.stopping;
  }
}
