import { sql, type RawBuilder } from "kysely";

export type WatchState = "active" | "expired" | "unsubscribed";

/** The named states of a subscription (docs/webhooks.md "Quota and expiry"): unsubscribe wins over expiry. */
export function watchState(w: { unsubscribed_at: Date | null; expires_at: Date }, now: Date): WatchState {
  if (w.unsubscribed_at) return "unsubscribed";
  return w.expires_at.getTime() <= now.getTime() ? "expired" : "active";
}

/**
 * A watch bought by an x402 payment carries that payment's id; until the payment settled (or
 * when it never does) the watch does not exist for anyone, the alerter included.
 */
export const paidFor = (alias: string): RawBuilder<boolean> =>
  sql<boolean>`not exists (select 1 from payments p where p.id = ${sql.ref(`${alias}.id`)} and p.status <> 'settled')`;

/** Subscribed, unexpired and paid for: the watches the alerter evaluates and delivers for. */
export const isLive = (alias: string, now: Date): RawBuilder<boolean> =>
  sql<boolean>`(${sql.ref(`${alias}.unsubscribed_at`)} is null and ${sql.ref(`${alias}.expires_at`)} > ${now} and ${paidFor(alias)})`;
