import { sql, type Kysely } from "kysely";
import { LOCKS, runExclusive } from "../../db/jobs/exclusive.js";
import type { Database } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import { knownStates, planTransitions, type TransitionPlan } from "./plan-transitions.js";
import { isLive } from "./watch-activity.js";
import { watchedVerdicts } from "./watched-verdicts.js";

export interface TransitionSummary {
  /** Live watches evaluated (0 when another process held the evaluation lock). */
  watches: number;
  alerts: number;
  fired: number;
  cleared: number;
  skippedQuota: number;
}

const NONE: TransitionSummary = { watches: 0, alerts: 0, fired: 0, cleared: 0, skippedQuota: 0 };
const CHUNK = 2000;

/**
 * The alerter's evaluation: the state of every subscribed signal of every live watch,
 * compared with the last known one; each change stores the new state and enqueues its alert in
 * one transaction, so an alert is never lost nor queued twice. One process evaluates at a time
 * (runExclusive); the others skip this evaluation.
 */
export async function evaluateTransitions(deps: { db: Kysely<Database>; soleWriter: boolean; clock: Clock }): Promise<TransitionSummary> {
  const now = deps.clock.now();
  const done = await runExclusive(deps, LOCKS.alerterEvaluation, (trx) => evaluate(trx, now), { atomic: true });
  return done.ran ? done.value : NONE;
}

async function evaluate(trx: Kysely<Database>, now: Date): Promise<TransitionSummary> {
  const watches = await trx
    .selectFrom("watches as w")
    .select(["w.id", "w.url", "w.url_normalized", "w.signals", "w.alerts_remaining", "w.listing_id"])
    .where(isLive("w", now))
    .execute();
  if (watches.length === 0) return NONE;
  const verdicts = await watchedVerdicts(trx, now);
  const states = await trx
    .selectFrom("watch_signal_state as s")
    .select(["s.watch_id", "s.signal", "s.state", "s.decided"])
    .where("s.watch_id", "in", trx.selectFrom("watches as w").select("w.id").where(isLive("w", now)))
    .execute();
  const plan = planTransitions(watches, verdicts, knownStates(states), now);
  await writePlan(trx, plan, now);
  const sent = plan.deliveries.filter((d) => d.status === "pending");
  return {
    watches: watches.length,
    alerts: plan.deliveries.length,
    fired: plan.deliveries.filter((d) => d.state === "fired").length,
    cleared: plan.deliveries.filter((d) => d.state === "cleared").length,
    skippedQuota: plan.deliveries.length - sent.length,
  };
}

const chunks = <T>(rows: readonly T[]) =>
  Array.from({ length: Math.ceil(rows.length / CHUNK) }, (_, i) => JSON.stringify(rows.slice(i * CHUNK, (i + 1) * CHUNK)));

async function writePlan(trx: Kysely<Database>, plan: TransitionPlan, now: Date): Promise<void> {
  const at = now.toISOString();
  for (const json of chunks(plan.states)) {
    await sql`
      insert into watch_signal_state (watch_id, signal, state, decided, changed_at, evidence)
      select x.watch_id, x.signal, x.state, x.decided, ${at}::timestamptz, x.evidence
      from jsonb_to_recordset(${json}::jsonb) as x(watch_id uuid, signal text, state text, decided text, evidence jsonb)
      on conflict (watch_id, signal) do update
        set state = excluded.state, decided = excluded.decided, changed_at = excluded.changed_at, evidence = excluded.evidence`.execute(trx);
  }
  for (const json of chunks(plan.deliveries)) {
    await sql`
      insert into webhook_deliveries (id, watch_id, signal, state, payload, status, next_attempt_at, created_at)
      select x.id, x.watch_id, x.signal, x.state, x.payload, x.status, ${at}::timestamptz, ${at}::timestamptz
      from jsonb_to_recordset(${json}::jsonb) as x(id uuid, watch_id uuid, signal text, state text, payload jsonb, status text)`.execute(trx);
  }
  for (const json of chunks(plan.spent)) {
    await sql`
      update watches as w set alerts_remaining = greatest(w.alerts_remaining - x.n, 0)
      from jsonb_to_recordset(${json}::jsonb) as x(id uuid, n integer)
      where w.id = x.id`.execute(trx);
  }
  for (const json of chunks(plan.listings)) {
    await sql`
      update watches as w set listing_id = x.listing_id
      from jsonb_to_recordset(${json}::jsonb) as x(id uuid, listing_id bigint)
      where w.id = x.id`.execute(trx);
  }
}
