import { sql, type Kysely } from "kysely";
import { coalesce } from "../../db/coalesce.js";
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

export interface TrialCall {
  ip: string;
  host: string;
  urlNormalized: string;
}

type Counted = { ord: string; ip_ok: boolean; host_ok: boolean; report: PreflightReport | null };

/**
 * Counts trial calls against the caller's IP and the target host for their UTC day, in the
 * database so every API process agrees, and reads each URL's cached answer. The calls of one
 * event-loop turn share one statement (coalesce) and are judged as if they had come one after
 * another in call order.
 *
 * Each counter moves only up to its limit: the statement groups a turn's calls by key, raises
 * each counter by what it can grant (the conflict update re-checks the locked row, so concurrent
 * statements cannot overshoot) and records the grant in `granted`, which RETURNING reports; the
 * first calls of that key get it. The host is counted only for calls the IP limit let through:
 * a call refused for the IP's limit never touches the host's count, so one client cannot use up
 * a host's trial for everyone. A call refused for the host's limit still counts against its IP.
 * Rows are locked IPs first, then hosts, each in key order, so concurrent statements (other
 * turns, other processes) cannot deadlock.
 */
export function createTrialQuota(db: Kysely<Database>): (call: TrialCall, now: Date) => Promise<PreflightReport | undefined> {
  const counted = (scope: "ip" | "host", want: string, limit: number) => sql`
    insert into trial_counters as c (day, scope, key, count, granted)
    select day, ${scope}, key, n, n from ${sql.table(want)}, async_commit order by day, key
    on conflict (day, scope, key) do update
      set count = least(c.count + excluded.granted, ${limit}), granted = least(c.count + excluded.granted, ${limit}) - c.count
      where c.count < ${limit}
    returning c.day, c.key, c.granted`;

  const consume = coalesce<TrialCall & { at: Date }, PreflightReport | undefined>(async (calls) => {
    const column = <T>(f: (c: TrialCall & { at: Date }) => T) => calls.map(f);
    const rows = await executePrepared(db, "trial-calls", sql<Counted>`
      with ${asyncCommitCte},
      req as (
        select ord, day::date as day, ip, host, url, at::timestamptz as at
        from unnest(${column((c) => c.at.toISOString().slice(0, 10))}::text[], ${column((c) => c.ip)}::text[], ${column((c) => c.host)}::text[],
          ${column((c) => c.urlNormalized)}::text[], ${column((c) => c.at.toISOString())}::text[]) with ordinality as t(day, ip, host, url, at, ord)
      ),
      ip_want as (select day, ip as key, least(count(*), ${TRIAL.perIpPerDay})::int as n from req group by day, ip),
      ip_counted as (${counted("ip", "ip_want", TRIAL.perIpPerDay)}),
      ip_ok as (
        select r.ord, r.day, r.host from (select req.*, row_number() over (partition by day, ip order by ord) as nth from req) r
        join ip_counted g on g.day = r.day and g.key = r.ip where r.nth <= g.granted
      ),
      host_want as (select day, host as key, least(count(*), ${TRIAL.perHostPerDay})::int as n from ip_ok group by day, host),
      host_counted as (${counted("host", "host_want", TRIAL.perHostPerDay)}),
      host_ok as (
        select r.ord from (select ip_ok.*, row_number() over (partition by day, host order by ord) as nth from ip_ok) r
        join host_counted g on g.day = r.day and g.key = r.host where r.nth <= g.granted
      )
      select req.ord, exists (select 1 from ip_ok where ip_ok.ord = req.ord) as ip_ok, exists (select 1 from host_ok where host_ok.ord = req.ord) as host_ok,
        (select report from trial_cache tc where tc.url_normalized = req.url and tc.expires_at > req.at) as report
      from req`.compile(db));
    const byOrd: Counted[] = [];
    for (const r of rows) byOrd[Number(r.ord) - 1] = r;
    return calls.map((call, i) => {
      const r = byOrd[i]!;
      if (!r.ip_ok) return new TrialLimitExceeded("ip", TRIAL.perIpPerDay, call.at);
      if (!r.host_ok) return new TrialLimitExceeded("host", TRIAL.perHostPerDay, call.at);
      return r.report ?? undefined;
    });
  });
  return (call, now) => consume({ ...call, at: now });
}
