import type { Kysely } from "kysely";
import type { DeliveryStatus, Database, JsonObject, SignalState, WatchSignalState } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import { LEFT_CATALOG, STATUS_DELIVERIES } from "./constants.js";
import { secretMatches } from "./secrets.js";
import { paidFor, watchState, type WatchState } from "./watch-activity.js";

export interface WatchStatus {
  watchId: string;
  state: WatchState;
  url: string;
  webhookUrl: string;
  signals: string[];
  createdAt: Date;
  expiresAt: Date;
  unsubscribedAt: Date | null;
  alertsRemaining: number;
  /** Last evaluated state of each subscribed signal; "unknown" too little evidence, or before the first evaluation. */
  signalStates: Array<{ signal: string; state: WatchSignalState; since: Date | null; evidence: JsonObject }>;
  /** Whether the watched URL is a listing of the catalog: false once it left (left_catalog fired), null before it was ever listed or evaluated. */
  listing: { listed: boolean | null; since: Date | null; evidence: JsonObject };
  /** The newest deliveries first. */
  deliveries: Array<{
    webhookId: string;
    signal: string;
    state: SignalState;
    status: DeliveryStatus;
    attempts: number;
    lastResponseCode: number | null;
    lastError: string | null;
    createdAt: Date;
    nextAttemptAt: Date | null;
    deliveredAt: Date | null;
  }>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The watch `id` names, if `secret` is its secret. A malformed id, an unknown id, an unpaid
 * watch and a wrong or missing secret all give undefined after the same digest comparison.
 */
export async function authorizedWatch(db: Kysely<Database>, id: string, secret: string | undefined) {
  const row = UUID.test(id) ? await db.selectFrom("watches as w").selectAll("w").where("w.id", "=", id).where(paidFor("w")).executeTakeFirst() : undefined;
  return secretMatches(row?.secret_hash, secret) ? row : undefined;
}

export async function watchStatus(deps: { db: Kysely<Database>; clock: Clock }, id: string, secret: string | undefined): Promise<WatchStatus | undefined> {
  const w = await authorizedWatch(deps.db, id, secret);
  if (!w) return undefined;
  const [states, deliveries] = await Promise.all([
    deps.db.selectFrom("watch_signal_state").selectAll().where("watch_id", "=", w.id).execute(),
    deps.db
      .selectFrom("webhook_deliveries")
      .selectAll()
      .where("watch_id", "=", w.id)
      .orderBy("created_at", "desc")
      .orderBy("id")
      .limit(STATUS_DELIVERIES)
      .execute(),
  ]);
  const bySignal = new Map(states.map((s) => [s.signal, s]));
  return {
    watchId: w.id,
    state: watchState(w, deps.clock.now()),
    url: w.url,
    webhookUrl: w.webhook_url,
    signals: w.signals,
    createdAt: w.created_at,
    expiresAt: w.expires_at,
    unsubscribedAt: w.unsubscribed_at,
    alertsRemaining: w.alerts_remaining,
    signalStates: w.signals.map((signal) => {
      const s = bySignal.get(signal);
      return { signal, state: s?.state ?? "unknown", since: s?.changed_at ?? null, evidence: s?.evidence ?? {} };
    }),
    listing: listingOf(bySignal.get(LEFT_CATALOG)),
    deliveries: deliveries.map((d) => ({
      webhookId: d.id,
      signal: d.signal,
      state: d.state,
      status: d.status,
      attempts: d.attempts,
      lastResponseCode: d.last_response_code,
      lastError: d.last_error,
      createdAt: d.created_at,
      nextAttemptAt: d.status === "pending" ? d.next_attempt_at : null,
      deliveredAt: d.delivered_at,
    })),
  };
}

/** The watch's left_catalog state as the status tells it: listed, left, or not known. */
function listingOf(s: { state: WatchSignalState; changed_at: Date; evidence: JsonObject } | undefined): WatchStatus["listing"] {
  if (!s || s.state === "unknown") return { listed: null, since: null, evidence: s?.evidence ?? {} };
  return { listed: s.state === "cleared", since: s.changed_at, evidence: s.evidence };
}

/**
 * Unsubscribes (idempotent) and keeps the history. Alerts still waiting are closed as failed
 * at once, so nothing more is sent to the receiver.
 */
export async function unsubscribeWatch(deps: { db: Kysely<Database>; clock: Clock }, id: string, secret: string | undefined): Promise<WatchStatus | undefined> {
  const w = await authorizedWatch(deps.db, id, secret);
  if (!w) return undefined;
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await trx.updateTable("watches").set({ unsubscribed_at: now }).where("id", "=", w.id).where("unsubscribed_at", "is", null).execute();
    await trx
      .updateTable("webhook_deliveries")
      .set({ status: "failed", last_error: "cancelled: the watch was unsubscribed", lease_owner: null, lease_until: null })
      .where("watch_id", "=", w.id)
      .where("status", "=", "pending")
      .execute();
  });
  return watchStatus(deps, id, secret);
}
