import { sql, type Kysely } from "kysely";
import { claim, complete, fail, release, type Completion, type LeaseTable } from "../../db/jobs/lease.js";
import type { Database, JsonObject } from "../../db/schema.js";
import { DELIVERY_BACKOFF } from "./backoff.js";
import { MAX_ATTEMPTS } from "./constants.js";
import { isLive } from "./watch-activity.js";

/** Webhook deliveries as leased jobs: due at next_attempt_at. */
const DELIVERIES: LeaseTable<"webhook_deliveries"> = { table: "webhook_deliveries", key: "id", keyType: "uuid", due: "next_attempt_at", expired: "<=" };

export interface ClaimedDelivery {
  /** The webhook-id: the same for every attempt. */
  id: string;
  watchId: string;
  payload: JsonObject;
  attempts: number;
  webhookUrl: string;
  /** Receiver host, lower case, no port: the unit of the per-host limits. */
  webhookHost: string;
  /** Who bought the watch (the paying wallet, or the watch itself when none): the unit of the per-customer limit. */
  customer: string;
  /** The secret as kept (sealed-secret.ts); null on watches made before decision 0025. */
  secretSealed: Buffer | null;
  /** The HKDF-derived key of those older watches. */
  legacyKey: Buffer | null;
}

/** A watch's customer: the wallet that paid for it, or the watch itself when none did. */
const CUSTOMER = (alias: string) => sql<string>`coalesce(lower(${sql.ref(`${alias}.payer_address`)}), ${sql.ref(`${alias}.id`)}::text)`;

type ClaimedRow = {
  id: string;
  watch_id: string;
  payload: JsonObject;
  attempts: number;
  webhook_url: string;
  webhook_host: string;
  customer: string;
  secret_sealed: Buffer | null;
  signing_key: Buffer | null;
};

/**
 * Claims the next due delivery for `owner` until `now + leaseMs`. Rows another process holds
 * are skipped, not waited for; a lease left by a process that died expires and the delivery is
 * claimed again, with the same webhook-id. Per watch, alerts go out in the order they were
 * raised: only a watch's oldest pending delivery is eligible, so "cleared" never overtakes the
 * "fired" it follows. First attempts go before retries (a receiver that failed, perhaps by
 * hanging, waits behind the ones that have not), and `firstAttemptsOnly` leaves retries out.
 */
export async function claimDelivery(
  db: Kysely<Database>,
  owner: string,
  now: Date,
  leaseMs: number,
  opts: {
    firstAttemptsOnly?: boolean;
    skipHosts?: readonly string[];
    skipCustomers?: readonly string[];
    skipHostCustomers?: ReadonlyArray<readonly [host: string, customer: string]>;
  } = {},
): Promise<ClaimedDelivery | undefined> {
  const skip = JSON.stringify(opts.skipHosts ?? []);
  const skipCustomers = JSON.stringify(opts.skipCustomers ?? []);
  const skipPairs = JSON.stringify(opts.skipHostCustomers ?? []);
  const rows = await claim<ClaimedRow, "webhook_deliveries">(db, DELIVERIES, {
    owner,
    now,
    leaseMs,
    alias: "d",
    pick: {
      join: sql`join watches as pw on pw.id = p.watch_id`,
      where: [
        sql<boolean>`p.status = 'pending'`,
        sql<boolean>`(${opts.firstAttemptsOnly === true} = false or p.attempts = 0)`,
        isLive("pw", now),
        sql<boolean>`not exists (select 1 from jsonb_array_elements_text(${skip}::jsonb) as h(host) where h.host = pw.webhook_host)`,
        sql<boolean>`not exists (select 1 from jsonb_array_elements_text(${skipCustomers}::jsonb) as c(key) where c.key = ${CUSTOMER("pw")})`,
        sql<boolean>`not exists (select 1 from jsonb_array_elements(${skipPairs}::jsonb) as x(pair)
          where x.pair->>0 = pw.webhook_host and x.pair->>1 = ${CUSTOMER("pw")})`,
        sql<boolean>`not exists (
            select 1 from webhook_deliveries as q
            where q.watch_id = p.watch_id and q.status = 'pending' and (q.created_at, q.id) < (p.created_at, p.id)
          )`,
      ],
      orderBy: sql`p.attempts > 0, p.next_attempt_at, p.created_at, p.id`,
      limit: 1,
      lock: "update",
    },
    from: { table: sql`watches as w`, on: sql<boolean>`w.id = d.watch_id` },
    returning: sql`d.id, d.watch_id, d.payload, d.attempts, w.webhook_url, w.webhook_host, ${CUSTOMER("w")} as customer, w.secret_sealed, w.signing_key`,
  });
  const r = rows[0];
  return (
    r && {
      id: r.id,
      watchId: r.watch_id,
      payload: r.payload,
      attempts: r.attempts,
      webhookUrl: r.webhook_url,
      webhookHost: r.webhook_host,
      customer: r.customer,
      secretSealed: r.secret_sealed,
      legacyKey: r.signing_key,
    }
  );
}

/** Hands a claimed delivery back unsent (its host is over its rate): due now, for any process. */
export const releaseDelivery = (db: Kysely<Database>, owner: string, d: ClaimedDelivery, now: Date): Promise<void> =>
  release(db, DELIVERIES, owner, [d.id], now);

export type AttemptOutcome = { delivered: true; statusCode: number } | { delivered: false; statusCode: number | null; error: string };
export type AttemptResult = "delivered" | "retrying" | "failed" | "lost";

/**
 * Records one attempt and releases the lease. Only the lease holder may record, so a process
 * that lost its lease (it stalled past it) cannot overwrite the attempt of the one that took
 * over: that answers "lost".
 */
export async function recordAttempt(
  db: Kysely<Database>,
  owner: string,
  d: ClaimedDelivery,
  outcome: AttemptOutcome,
  now: Date,
  random: () => number = Math.random,
): Promise<AttemptResult> {
  const attempts = d.attempts + 1;
  const result: AttemptResult = outcome.delivered ? "delivered" : attempts >= MAX_ATTEMPTS ? "failed" : "retrying";
  const c: Omit<Completion<"webhook_deliveries">, "due"> = {
    owner,
    key: d.id,
    where: { status: "pending" },
    set: {
      attempts,
      status: result === "retrying" ? "pending" : result,
      last_response_code: outcome.statusCode,
      last_error: outcome.delivered ? null : outcome.error,
      delivered_at: outcome.delivered ? now : null,
    },
  };
  const written =
    result === "retrying"
      ? (await fail(db, DELIVERIES, { ...c, now, failures: attempts, backoff: DELIVERY_BACKOFF, random })).written
      : await complete(db, DELIVERIES, { ...c, due: now });
  return written ? result : "lost";
}

/** Alerts still waiting for a watch that expired are closed: an expired watch stops. */
export async function cancelStopped(db: Kysely<Database>, now: Date): Promise<number> {
  const r = await sql`
    update webhook_deliveries as d
    set status = 'failed', lease_owner = null, lease_until = null,
        last_error = case when w.unsubscribed_at is not null then 'cancelled: the watch was unsubscribed' else 'cancelled: the watch expired' end
    from watches as w
    where w.id = d.watch_id and d.status = 'pending'
      and not ${isLive("w", now)}
      and (d.lease_until is null or d.lease_until <= ${now})`.execute(db);
  return Number(r.numAffectedRows ?? 0n);
}
