import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { ApiError } from "../../http/errors.js";
import { TRIAL } from "../signals/constants.js";

const DAY_MS = 86_400_000;

/** Seconds until the next UTC midnight, when every trial quota resets. */
export function nextUtcMidnight(now: Date): Date {
  return new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS);
}

export class TrialLimitExceeded extends ApiError {
  constructor(scope: "ip" | "host", limit: number, now: Date) {
    const reset = nextUtcMidnight(now);
    const seconds = Math.max(1, Math.ceil((reset.getTime() - now.getTime()) / 1000));
    super(
      429,
      "rate_limited",
      scope === "ip"
        ? `free trial limit reached: ${limit} calls per client IP per UTC day; pay per call with POST /api/v1/preflight, or retry after the reset`
        : `free trial limit reached for this target host: ${limit} calls per host per UTC day; pay per call with POST /api/v1/preflight, or retry after the reset`,
      { scope, limit, reset_at: reset.toISOString() },
      { "retry-after": String(seconds), "x-rate-limit-reset": String(Math.floor(reset.getTime() / 1000)), "x-rate-limit-limit": String(limit) },
    );
  }
}

/**
 * Counts one trial call against the caller's IP and the target host for today (UTC), in the
 * database so every API process agrees. Both counters move together or not at all.
 */
export async function consumeTrialCall(db: Kysely<Database>, who: { ip: string; host: string }, now: Date): Promise<void> {
  const day = now.toISOString().slice(0, 10);
  await db.transaction().execute(async (tx) => {
    const bump = async (scope: "ip" | "host", key: string) => {
      const row = await tx
        .insertInto("trial_counters")
        .values({ day, scope, key, count: 1 })
        .onConflict((oc) => oc.columns(["day", "scope", "key"]).doUpdateSet({ count: sql`trial_counters.count + 1` }))
        .returning("count")
        .executeTakeFirstOrThrow();
      return row.count;
    };
    if ((await bump("ip", who.ip)) > TRIAL.perIpPerDay) throw new TrialLimitExceeded("ip", TRIAL.perIpPerDay, now);
    if ((await bump("host", who.host)) > TRIAL.perHostPerDay) throw new TrialLimitExceeded("host", TRIAL.perHostPerDay, now);
  });
}
