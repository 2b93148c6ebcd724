import { TokenBuckets } from "../../lib/token-buckets.js";
import type { ClaimedDelivery } from "./delivery-queue.js";

export interface DeliveryLimitsOptions {
  perHost: number;
  perCustomer: number;
  hostRate: { capacity: number; perSecond: number };
  hostsTracked: number;
  /** Real time in ms: receivers' rates are a matter of wall time. */
  wallMs: () => number;
}

type Counts = Map<string, number>;
const full = (counts: Counts, limit: number) => [...counts].filter(([, n]) => n >= limit).map(([k]) => k);
const up = (counts: Counts, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
function down(counts: Counts, key: string): void {
  const left = (counts.get(key) ?? 1) - 1;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
}

const pairOf = (d: ClaimedDelivery) => JSON.stringify([d.webhookHost, d.customer]);

/**
 * One process's per-receiver-host and per-customer limits: attempts in flight per host and per
 * customer, and a token bucket per host. One customer holds at most all but one of a host's
 * slots, so customers whose receivers hang on a shared host (a webhook platform) never block the
 * host for the others. What is at a limit is left out of the next claim.
 */
export function createDeliveryLimits(o: DeliveryLimitsOptions) {
  const buckets = new TokenBuckets({ ...o.hostRate, maxKeys: o.hostsTracked });
  const hosts: Counts = new Map();
  const customers: Counts = new Map();
  const pairs: Counts = new Map();
  const perPair = Math.max(1, o.perHost - 1);
  const blocked = new Map<string, number>();
  return {
    /** Hosts and customers the next claim must skip. */
    skip() {
      const skipHosts = full(hosts, o.perHost);
      for (const [h, until] of blocked) {
        if (until > o.wallMs()) skipHosts.push(h);
        else blocked.delete(h);
      }
      const skipHostCustomers = full(pairs, perPair).map((k) => JSON.parse(k) as [host: string, customer: string]);
      return { skipHosts, skipCustomers: full(customers, o.perCustomer), skipHostCustomers };
    },
    /** Takes a token of the delivery's host; false (the host is blocked until one is back) when it has none. */
    admit(d: ClaimedDelivery): boolean {
      const waitS = buckets.take(d.webhookHost, o.wallMs());
      if (waitS > 0) blocked.set(d.webhookHost, o.wallMs() + waitS * 1000);
      return waitS === 0;
    },
    started(d: ClaimedDelivery): void {
      up(hosts, d.webhookHost);
      up(customers, d.customer);
      up(pairs, pairOf(d));
    },
    ended(d: ClaimedDelivery): void {
      down(hosts, d.webhookHost);
      down(customers, d.customer);
      down(pairs, pairOf(d));
    },
    /** Milliseconds until the first blocked host may be claimed again; undefined when none is blocked. */
    nextUnblockMs(): number | undefined {
      return blocked.size > 0 ? Math.max(0, Math.min(...blocked.values()) - o.wallMs()) : undefined;
    },
  };
}
