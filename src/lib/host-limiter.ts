/**
 * Politeness towards the hosts we probe: at most `concurrency` requests at once per host and at
 * most `ratePerSecond` starts per second per host (token bucket holding `burst` tokens), plus
 * one global cap on requests in flight. Waiters are served first come, first served per host.
 * Time is real monotonic time (performance.now), not business time: politeness is physical.
 */

export interface HostLimiterOptions {
  concurrency: number;
  ratePerSecond: number;
  burst: number;
  /** Requests in flight across all hosts. */
  globalConcurrency: number;
  /** Monotonic milliseconds (default performance.now); tests may pass their own. */
  now?: () => number;
}

export type Release = () => void;

/** Rejects acquire() calls still waiting (or made) after cancelWaiting(). */
export class AcquireAbortedError extends Error {
  constructor() {
    super("gave up waiting for a request slot");
    this.name = "AcquireAbortedError";
  }
}

interface Waiter {
  grant(): void;
  reject(err: Error): void;
}

/** A counting semaphore with a FIFO queue. */
export class Semaphore {
  private active = 0;
  private waiters: Waiter[] = [];
  private cancelled = false;

  constructor(readonly limit: number) {}

  acquire(): Promise<Release> {
    return new Promise((resolve, reject) => {
      if (this.cancelled) return reject(new AcquireAbortedError());
      const grant = () => {
        this.active++;
        resolve(
          once(() => {
            this.active--;
            this.waiters.shift()?.grant();
          }),
        );
      };
      if (this.active < this.limit) grant();
      else this.waiters.push({ grant, reject });
    });
  }

  /** Rejects every waiter, now and from now on; holders keep their slots until they release. */
  cancelWaiting(): void {
    this.cancelled = true;
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) w.reject(new AcquireAbortedError());
  }

  get inUse(): number {
    return this.active;
  }
}

function once(fn: () => void): Release {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}

interface HostState {
  active: number;
  tokens: number;
  refilledAt: number;
  waiters: Waiter[];
  timer: NodeJS.Timeout | undefined;
}

export class HostLimiter {
  private readonly hosts = new Map<string, HostState>();
  private readonly global: Semaphore;
  private readonly now: () => number;
  private lastSweep: number;
  private cancelled = false;

  constructor(private readonly opts: HostLimiterOptions) {
    if (!(opts.concurrency >= 1 && opts.ratePerSecond > 0 && opts.burst >= 1 && opts.globalConcurrency >= 1)) {
      throw new RangeError("host limiter needs concurrency, burst and globalConcurrency >= 1 and ratePerSecond > 0");
    }
    this.global = new Semaphore(opts.globalConcurrency);
    this.now = opts.now ?? (() => performance.now());
    this.lastSweep = this.now();
  }

  /**
   * Waits for a slot of `host` (and a token), then for a global slot. Holding the host slot
   * while waiting for the global one only delays that host's next request: politer, not less so.
   */
  async acquire(host: string): Promise<Release> {
    this.sweep();
    const releaseHost = await this.acquireHost(host);
    try {
      const releaseGlobal = await this.global.acquire();
      return () => {
        releaseGlobal();
        releaseHost();
      };
    } catch (err) {
      releaseHost();
      throw err;
    }
  }

  /** Runs `fn` under the host's and the global limits. */
  async run<T>(host: string, fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire(host);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  /** Shutdown: every waiting and future acquire() rejects; granted slots run to completion. */
  cancelWaiting(): void {
    this.cancelled = true;
    for (const s of this.hosts.values()) {
      const waiting = s.waiters;
      s.waiters = [];
      clearTimeout(s.timer);
      s.timer = undefined;
      for (const w of waiting) w.reject(new AcquireAbortedError());
    }
    this.global.cancelWaiting();
  }

  /** Hosts currently tracked (active, waiting, or still refilling their bucket). */
  get trackedHosts(): number {
    return this.hosts.size;
  }

  get inFlight(): number {
    return this.global.inUse;
  }

  private acquireHost(host: string): Promise<Release> {
    let s = this.hosts.get(host);
    if (!s) {
      s = { active: 0, tokens: this.opts.burst, refilledAt: this.now(), waiters: [], timer: undefined };
      this.hosts.set(host, s);
    }
    const state = s;
    return new Promise((resolve, reject) => {
      if (this.cancelled) return reject(new AcquireAbortedError());
      const grant = () =>
        resolve(
          once(() => {
            state.active--;
            this.pump(state);
          }),
        );
      state.waiters.push({ grant, reject });
      this.pump(state);
    });
  }

  private refill(s: HostState): void {
    const t = this.now();
    s.tokens = Math.min(this.opts.burst, s.tokens + ((t - s.refilledAt) * this.opts.ratePerSecond) / 1000);
    s.refilledAt = t;
  }

  private pump(s: HostState): void {
    this.refill(s);
    while (s.waiters.length > 0 && s.active < this.opts.concurrency && s.tokens >= 1) {
      s.tokens -= 1;
      s.active++;
      s.waiters.shift()!.grant();
    }
    if (s.waiters.length > 0 && s.active < this.opts.concurrency && s.timer === undefined) {
      const waitMs = Math.max(1, Math.ceil(((1 - s.tokens) * 1000) / this.opts.ratePerSecond));
      s.timer = setTimeout(() => {
        s.timer = undefined;
        this.pump(s);
      }, waitMs);
    }
  }

  // A host is forgotten once nothing is waiting or running and its bucket is full again, so
  // forgetting it grants nothing a remembered state would not. Swept at most once a second.
  private sweep(): void {
    const t = this.now();
    if (t - this.lastSweep < 1000) return;
    this.lastSweep = t;
    for (const [host, s] of this.hosts) {
      if (s.active > 0 || s.waiters.length > 0) continue;
      this.refill(s);
      if (s.tokens >= this.opts.burst) this.hosts.delete(host);
    }
  }
}
