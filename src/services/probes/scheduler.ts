import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import { AcquireAbortedError } from "../../lib/host-limiter.js";
import type { Logger } from "../../lib/log.js";
import { CLAIM_PAUSE_MS, MAX_PENDING_JOBS, MAX_PENDING_PER_HOST, WRITE_BATCH_SIZE, WRITE_FLUSH_MS } from "./constants.js";
import type { HttpClient } from "./http-client.js";
import type { Job, ProbeStrategy } from "./types.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface SchedulerDeps {
  db: Kysely<Database>;
  clock: Clock;
  log: Logger;
  http: HttpClient;
  /** Lease owner name of this process. */
  owner: string;
  /** Set on shutdown: claim nothing more, finish what was sent. */
  stopping: () => boolean;
}

export interface DrainResult {
  claimed: number;
  done: number;
  errors: number;
  /** Listings whose results were stored (for the snapshot recompute). */
  listingIds: number[];
}

/**
 * Claims due jobs of one strategy until none are due, runs them under the politeness limits and
 * records results in batches. Claiming is host-aware: a host with MAX_PENDING_PER_HOST jobs
 * waiting here is left out of the next claim, so one big host cannot fill the process's queue
 * while every other host idles. A job counts as pending until its result is written, which
 * bounds memory by MAX_PENDING_JOBS even when the database is the bottleneck.
 */
export async function drainDue<J extends Job, R>(strategy: ProbeStrategy<J, R>, deps: SchedulerDeps): Promise<DrainResult> {
  const out: DrainResult = { claimed: 0, done: 0, errors: 0, listingIds: [] };
  const perHost = new Map<string, number>();
  let running = 0;
  const unrun: J[] = [];
  let buffer: Array<{ job: J; result: R }> = [];
  let pending = 0;
  let writing: Promise<void> = Promise.resolve();
  let wake: (() => void) | undefined;
  const progress = () => new Promise<void>((resolve) => (wake = resolve));
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };

  const flush = (): Promise<void> => {
    if (buffer.length === 0) return writing;
    const batch = buffer;
    buffer = [];
    writing = writing.then(async () => {
      try {
        await strategy.record(deps.db, deps.owner, batch, deps.clock.now());
        for (const { job } of batch) {
          const id = strategy.listingIdOf(job);
          if (id !== undefined) out.listingIds.push(id);
        }
      } catch (err) {
        // The leases stay; the jobs are due again once they expire.
        deps.log.error({ err, strategy: strategy.name, results: batch.length }, "writing probe results failed");
      } finally {
        pending -= batch.length;
        notify();
      }
    });
    return writing;
  };
  const timer = setInterval(() => void flush(), WRITE_FLUSH_MS);

  const start = (job: J) => {
    pending++;
    perHost.set(job.host, (perHost.get(job.host) ?? 0) + 1);
    running++;
    void strategy
      .run(job, deps.http, deps.clock.now())
      .then((result) => {
        out.done++;
        if (strategy.isError(result)) out.errors++;
        buffer.push({ job, result });
        if (buffer.length >= WRITE_BATCH_SIZE) void flush();
      })
      .catch((err: unknown) => {
        pending--;
        if (err instanceof AcquireAbortedError) unrun.push(job);
        else deps.log.error({ err, strategy: strategy.name, host: job.host }, "probe job failed");
      })
      .finally(() => {
        const n = perHost.get(job.host)! - 1;
        if (n === 0) perHost.delete(job.host);
        else perHost.set(job.host, n);
        running--;
        notify();
      });
  };

  try {
    await claimLoop();
  } catch (err) {
    // What was claimed still runs and is written below; the rest waits for the next cycle.
    deps.log.error({ err, strategy: strategy.name }, "claiming due work failed");
  }
  try {
    while (running > 0) await progress();
    await flush();
  } finally {
    clearInterval(timer);
    await writing;
    if (unrun.length > 0) {
      await strategy.release(deps.db, deps.owner, unrun, deps.clock.now()).catch((err: unknown) => deps.log.error({ err }, "releasing leases failed"));
    }
  }
  return out;

  async function claimLoop(): Promise<void> {
    while (!deps.stopping()) {
      const room = MAX_PENDING_JOBS - pending;
      if (room < Math.min(strategy.claimBatchSize, MAX_PENDING_JOBS / 4)) {
        await progress();
        continue;
      }
      const excludeHosts = [...perHost].filter(([, n]) => n >= MAX_PENDING_PER_HOST).map(([host]) => host);
      const limit = Math.min(strategy.claimBatchSize, room);
      const jobs = await strategy.claim(deps.db, { owner: deps.owner, now: deps.clock.now(), limit, excludeHosts, perHost: MAX_PENDING_PER_HOST });
      out.claimed += jobs.length;
      const claimedPerHost = new Map<string, number>();
      for (const job of jobs) {
        claimedPerHost.set(job.host, (claimedPerHost.get(job.host) ?? 0) + 1);
        start(job);
      }
      const hostCapped = [...claimedPerHost.values()].some((n) => n >= MAX_PENDING_PER_HOST);
      if (jobs.length === limit || hostCapped) continue;
      // Nothing more is due, unless it sits on a host left out: wait until that host has room.
      if (excludeHosts.length === 0 || running === 0) break;
      await progress();
      await sleep(CLAIM_PAUSE_MS);
    }
  }
}
