import { sql, type Kysely } from "kysely";
import { asyncCommitCte } from "../../db/async-commit.js";
import { executePrepared } from "../../db/prepared.js";
import type { Database } from "../../db/schema.js";
import type { PreflightReport } from "../../http/routes/preflight/schemas.js";
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
 * database so every API process agrees, and reads the URL's cached answer, in one statement.
 *
 * Each counter moves only while it is under its limit (the conflict update re-checks the locked
 * row, so concurrent calls cannot overshoot). The host is counted only if the IP was: a call
 * refused for the IP's limit never touches the host's count, so one client cannot use up a
 * host's trial for everyone. A call refused for the host's limit still counts against the IP
 * that made it.
 */
export async function consumeTrialCall(
  db: Kysely<Database>,
  who: { ip: string; host: string; urlNormalized: string },
  now: Date,
): Promise<PreflightReport | undefined> {
  const day = now.toISOString().slice(0, 10);
  const [r] = await executePrepared(db, "trial-call", sql<{ ip_ok: boolean; host_ok: boolean; report: PreflightReport | null }>`
    with ${asyncCommitCte},
    ip as (
      insert into trial_counters (day, scope, key, count) values (${day}, 'ip', ${who.ip}, 1)
      on conflict (day, scope, key) do update set count = trial_counters.count + 1 where trial_counters.count < ${TRIAL.perIpPerDay}
      returning 1
    ),
    host as (
      insert into trial_counters (day, scope, key, count) select ${day}, 'host', ${who.host}, 1 where exists (select 1 from ip)
      on conflict (day, scope, key) do update set count = trial_counters.count + 1 where trial_counters.count < ${TRIAL.perHostPerDay}
      returning 1
    )
    select exists (select 1 from ip) as ip_ok, exists (select 1 from host) as host_ok,
      (select report from trial_cache where url_normalized = ${who.urlNormalized} and expires_at > ${now.toISOString()}::timestamptz) as report
    from async_commit`.compile(db));
  if (!r!.ip_ok) throw new TrialLimitExceeded("ip", TRIAL.perIpPerDay, now);
  if (!r!.host_ok) throw new TrialLimitExceeded("host", TRIAL.perHostPerDay, now);
  return r!.report ?? undefined;
}
