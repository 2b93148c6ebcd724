import type { Logger } from "./log.js";

export interface RetryLaterOptions {
  /** Attempts in all, the first one included (default 12: about 8 minutes with the defaults). */
  attempts?: number;
  firstDelayMs?: number;
  maxDelayMs?: number;
}

/**
 * Runs a compensation now (giving back a credit call, releasing a payment claim) and, when it
 * fails (the database that failed the request is still down), again in the background with
 * exponential backoff until it succeeds or the attempts run out. Never throws: the caller is
 * already answering with the error that made the compensation necessary.
 */
export async function nowOrLater(what: string, work: () => Promise<unknown>, log: Logger, opts: RetryLaterOptions = {}): Promise<void> {
  const attempts = opts.attempts ?? 12;
  const maxDelayMs = opts.maxDelayMs ?? 60_000;
  let delayMs = opts.firstDelayMs ?? 500;
  const attempt = async (n: number): Promise<void> => {
    try {
      await work();
      if (n > 1) log.info({ what, attempt: n }, "compensation done after the dependency came back");
    } catch (err) {
      if (n >= attempts) return void log.error({ what, attempts: n, err: (err as Error).message }, "compensation abandoned");
      if (n === 1) log.warn({ what, err: (err as Error).message }, "compensation failed; retrying in the background");
      const timer = setTimeout(() => void attempt(n + 1), delayMs);
      timer.unref();
      delayMs = Math.min(delayMs * 2, maxDelayMs);
    }
  };
  await attempt(1);
}
