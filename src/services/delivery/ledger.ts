import { publicId } from "../../lib/public-id.js";
import { sql, type Kysely } from "kysely";
import { LOCKS } from "../../db/jobs/exclusive.js";
import type { Database } from "../../db/schema.js";
import { DAY } from "../signals/constants.js";

/** The listing a check is for, as the candidates query reads it. */
export interface CheckTarget {
  listingId: number;
  url: string;
  method: string;
  host: string;
}

/** The paid checker's limits in atomic USDC and milliseconds (config.canary, decision 0051). */
export interface CanaryLimits {
  budgetAtomic: bigint;
  maxPriceAtomic: bigint;
  intervalMs: number;
  hostChecksPerDay: number;
}

/** A check runs at most this long (its answer's time-out and the settlement reads); an open check older than this only waits for the chain. */
export const CHECK_RUN_MS = 60_000;

export type Opened = { id: string } | { skipped: "budget" | "host_limit" } | null;

/** A check's public id: 'dc_' and 26 base32 characters. */
export const newCheckId = () => publicId("dc");

/**
 * Opens a check of `target` holding `amount` against the budget, under one lock every canary
 * process takes, so together they never hold more than the budget over any 24 hours: a done
 * check counts what it spent, an open one what it holds. Null when another process checked the
 * listing within its interval or has a check running on its host (one waiting only for the chain
 * holds budget, not the host); a skip row when the budget or the
 * host's daily limit would be passed (it counts as the interval's check: no retry every tick).
 */
export async function openCheck(db: Kysely<Database>, target: CheckTarget, amount: bigint, limits: CanaryLimits, owner: string, now: Date): Promise<Opened> {
  return db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(${sql.lit(LOCKS.canaryBudget.toString())}::bigint)`.execute(tx);
    const day = new Date(now.getTime() - DAY).toISOString();
    const recent = new Date(now.getTime() - limits.intervalMs).toISOString();
    const running = new Date(now.getTime() - CHECK_RUN_MS).toISOString();
    const { rows } = await sql<{ held: string; checked: boolean; host_open: boolean; host_day: number }>`
      select
        (select coalesce(sum(case when state = 'done' then spent_atomic else greatest(reserved_atomic, spent_atomic) end), 0)::text
           from delivery_checks where started_at > ${day}::timestamptz or state <> 'done') as held,
        exists (select 1 from delivery_checks where listing_id = ${target.listingId} and started_at > ${recent}::timestamptz) as checked,
        exists (select 1 from delivery_checks where host = ${target.host} and state <> 'done' and started_at > ${running}::timestamptz) as host_open,
        (select count(*)::int from delivery_checks where host = ${target.host} and started_at > ${day}::timestamptz and outcome is distinct from 'skipped') as host_day`.execute(
      tx,
    );
    const r = rows[0]!;
    if (r.checked || r.host_open) return null;
    const skipped = BigInt(r.held) + amount > limits.budgetAtomic ? "budget" : r.host_day >= limits.hostChecksPerDay ? "host_limit" : null;
    const id = newCheckId();
    await tx
      .insertInto("delivery_checks")
      .values({
        id,
        listing_id: target.listingId,
        url: target.url,
        method: target.method,
        host: target.host,
        state: skipped ? "done" : "reserved",
        outcome: skipped ? "skipped" : null,
        reason: skipped,
        reserved_atomic: skipped ? 0n : amount,
        owner,
        started_at: now,
        finished_at: skipped ? now : null,
      })
      .execute();
    return skipped ? { skipped } : { id };
  });
}

/** Records why a due listing is not paid this interval (ceiling, verdict, quote), unless another process checked it meanwhile. */
export async function recordSkip(db: Kysely<Database>, target: CheckTarget, reason: string, evidence: object, intervalMs: number, now: Date): Promise<void> {
  const recent = new Date(now.getTime() - intervalMs).toISOString();
  await sql`
    insert into delivery_checks (id, listing_id, url, method, host, state, outcome, reason, started_at, finished_at, evidence)
    select ${newCheckId()}, ${target.listingId}, ${target.url}, ${target.method}, ${target.host}, 'done', 'skipped', ${reason},
           ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz, ${JSON.stringify(evidence)}::jsonb
    where not exists (select 1 from delivery_checks where listing_id = ${target.listingId} and started_at > ${recent}::timestamptz)`.execute(db);
}
