import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import type { Logger } from "../../lib/log.js";
import { DELIVERY_CONCURRENCY, DELIVERY_HOST_RATE, DELIVERY_HOSTS_TRACKED, DELIVERY_LEASE_MS, DELIVERY_PER_CUSTOMER, DELIVERY_PER_HOST } from "./constants.js";
import { createDeliveryLimits } from "./delivery-limits.js";
import { claimDelivery, recordAttempt, releaseDelivery, type AttemptResult, type ClaimedDelivery } from "./delivery-queue.js";
import { sendDelivery, type Transport } from "./send-delivery.js";

export interface PoolDeps {
  db: Kysely<Database>;
  clock: Clock;
  log: Logger;
  transport: Transport;
  /** Lease owner name of this process. */
  owner: string;
  random?: () => number;
  /** Attempts in flight at once (all hosts). */
  concurrency?: number;
  /** Attempts in flight to one receiver host. */
  perHost?: number;
  /** Attempts in flight for one customer's watches. */
  perCustomer?: number;
  hostRate?: { capacity: number; perSecond: number };
  onResult?: (result: AttemptResult) => void;
  /** A claimed delivery put back because its host was over its rate. */
  onDeferred?: () => void;
}

export type DeliverySummary = Record<AttemptResult, number> & { attempted: number };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const zero = (): DeliverySummary => ({ attempted: 0, delivered: 0, retrying: 0, failed: 0, lost: 0 });

/**
 * The delivery loop's slots. `fill` claims due alerts into free slots and returns once they are
 * sent off, never waiting for a receiver; each finished attempt frees its slot and fills again.
 * A receiver host holds at most `perHost` slots and starts attempts at most at its token rate,
 * whatever the number of watches naming it, and one customer's watches hold at most
 * `perCustomer` slots whatever their hosts (the claim skips them meanwhile): a customer whose
 * receivers hang holds a bounded share, and watches cannot be used to flood a third party. Retries
 * (where hanging receivers end up) take at most half the slots, first attempts go first.
 */
export function createDeliveryPool(deps: PoolDeps) {
  const limit = deps.concurrency ?? DELIVERY_CONCURRENCY;
  const retryLimit = Math.max(1, Math.floor(limit / 2));
  const limits = createDeliveryLimits({
    perHost: deps.perHost ?? DELIVERY_PER_HOST,
    perCustomer: deps.perCustomer ?? DELIVERY_PER_CUSTOMER,
    hostRate: deps.hostRate ?? DELIVERY_HOST_RATE,
    hostsTracked: DELIVERY_HOSTS_TRACKED,
    wallMs: () => deps.transport.wallClock().getTime(),
  });
  const running = new Set<Promise<void>>();
  const totals = zero();
  let retries = 0;
  let stopped = false;
  let filling: Promise<number> | undefined;
  let again = false;

  function start(d: ClaimedDelivery): void {
    const retry = d.attempts > 0;
    if (retry) retries++;
    limits.started(d);
    totals.attempted++;
    const attempt = (async () => {
      const outcome = await sendDelivery(deps.transport, d);
      const result = await recordAttempt(deps.db, deps.owner, d, outcome, deps.clock.now(), deps.random);
      totals[result]++;
      deps.onResult?.(result);
    })()
      // The database failed: the lease keeps the delivery until it expires, then it is due again.
      .catch((err: unknown) => deps.log.error({ err }, "webhook delivery could not be recorded"))
      .finally(() => {
        if (retry) retries--;
        limits.ended(d);
        running.delete(attempt);
        if (!stopped) void fill();
      });
    running.add(attempt);
  }

  async function claimInto(): Promise<number> {
    let started = 0;
    try {
      while (!stopped && running.size < limit) {
        const now = deps.clock.now();
        const d = await claimDelivery(deps.db, deps.owner, now, DELIVERY_LEASE_MS, { firstAttemptsOnly: retries >= retryLimit, ...limits.skip() });
        if (!d) break;
        if (!limits.admit(d)) {
          await releaseDelivery(deps.db, deps.owner, d, now);
          deps.onDeferred?.();
          continue;
        }
        start(d);
        started++;
      }
    } catch (err) {
      deps.log.error({ err }, "webhook delivery claim failed");
    }
    return started;
  }

  /** Claims into free slots (joining a fill in progress, which then looks once more); resolves with the attempts started. */
  function fill(): Promise<number> {
    if (filling) {
      again = true;
      return filling;
    }
    const run = async () => {
      let n = 0;
      do {
        again = false;
        n += await claimInto();
      } while (again && !stopped);
      return n;
    };
    filling = run().finally(() => (filling = undefined));
    return filling;
  }

  return {
    fill,
    /** Fills and waits until nothing is in flight and nothing due can be claimed; what it saw happen. */
    async settle(): Promise<DeliverySummary> {
      const before = { ...totals };
      for (;;) {
        await fill();
        const unblock = limits.nextUnblockMs();
        if (running.size > 0) await Promise.all([...running]);
        // A host over its rate: wait for its block to end (the claim then takes it again).
        else if (unblock !== undefined) await sleep(unblock);
        else break;
      }
      return { attempted: totals.attempted - before.attempted, ...diff(totals, before) };
    },
    /** Claims nothing more; `drain` then waits for the attempts in flight to be sent and recorded. */
    stop: () => void (stopped = true),
    async drain(): Promise<void> {
      await filling;
      while (running.size > 0) await Promise.all([...running]);
    },
    get inFlight() {
      return running.size;
    },
  };
}

const diff = (a: DeliverySummary, b: DeliverySummary): Record<AttemptResult, number> => ({
  delivered: a.delivered - b.delivered,
  retrying: a.retrying - b.retrying,
  failed: a.failed - b.failed,
  lost: a.lost - b.lost,
});

export type DeliveryPool = ReturnType<typeof createDeliveryPool>;
