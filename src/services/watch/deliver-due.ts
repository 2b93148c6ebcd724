import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import type { Logger } from "../../lib/log.js";
import { DELIVERIES_PER_TICK, DELIVERY_CONCURRENCY, DELIVERY_LEASE_MS } from "./constants.js";
import { claimDelivery, recordAttempt, type AttemptResult } from "./delivery-queue.js";
import { sendDelivery, type Transport } from "./send-delivery.js";

export interface DeliverDeps {
  db: Kysely<Database>;
  clock: Clock;
  log: Logger;
  transport: Transport;
  /** Lease owner name of this process. */
  owner: string;
  random?: () => number;
  concurrency?: number;
  /** Set on shutdown: claim nothing more, finish the attempts already sent. */
  stopping?: () => boolean;
  onResult?: (result: AttemptResult) => void;
}

export type DeliverySummary = Record<AttemptResult, number> & { attempted: number };

/**
 * Step (b) of an alerter tick: sends every due delivery, up to `concurrency` at a time. Each
 * slot claims one delivery, sends it, records it and claims the next, so a receiver that hangs
 * holds one slot for at most the timeout while the other slots keep going. Retries (where the
 * receivers that hang end up) take at most half the slots, and first attempts are claimed
 * first, so hanging receivers, however many, cannot hold up a fresh alert to a healthy one.
 * Slots are opened only while there is work, so an idle tick costs one query.
 */
export async function deliverDue(deps: DeliverDeps): Promise<DeliverySummary> {
  const summary: DeliverySummary = { attempted: 0, delivered: 0, retrying: 0, failed: 0, lost: 0 };
  const limit = deps.concurrency ?? DELIVERY_CONCURRENCY;
  const retryLimit = Math.max(1, Math.floor(limit / 2));
  const slots = new Set<Promise<void>>();
  let budget = DELIVERIES_PER_TICK;
  let retries = 0;

  const open = () => {
    const slot = run().finally(() => slots.delete(slot));
    slots.add(slot);
  };
  async function run(): Promise<void> {
    while (budget > 0 && !deps.stopping?.()) {
      budget--;
      try {
        const d = await claimDelivery(deps.db, deps.owner, deps.clock.now(), DELIVERY_LEASE_MS, { firstAttemptsOnly: retries >= retryLimit });
        if (!d) return;
        if (slots.size < limit) open();
        summary.attempted++;
        const retry = d.attempts > 0;
        if (retry) retries++;
        const outcome = await sendDelivery(deps.transport, d).finally(() => {
          if (retry) retries--;
        });
        const result = await recordAttempt(deps.db, deps.owner, d, outcome, deps.clock.now(), deps.random);
        summary[result]++;
        deps.onResult?.(result);
      } catch (err) {
        // The database failed: the lease (if any) keeps the delivery until it expires, then it is due again.
        deps.log.error({ err }, "webhook delivery slot failed");
        return;
      }
    }
  }

  open();
  while (slots.size > 0) await Promise.all([...slots]);
  return summary;
}
