import { sql, type Kysely } from "kysely";
import { coalesce } from "../../db/coalesce.js";
import { asyncCommitCte } from "../../db/async-commit.js";
import { executePrepared } from "../../db/prepared.js";
import type { Database } from "../../db/schema.js";
// eslint-disable-next-line import-x/no-restricted-paths -- wire types move to the contracts layer (issue 22)
import type { PreflightReport } from "../../http/routes/preflight/schemas.js";
import { QuotaExceeded } from "../errors.js";
import { TRIAL } from "../signals/constants.js";

const DAY_MS = 86_400_000;

/**
 * The most trial calls one counting statement serves. The statement's work in the database grows
 * with its calls (two counter upserts and a cached answer each), so a full batch is sent at once
 * and the turn's later calls go in the next one: the database counts the first while the process
 * still reads the rest. Measured on PostgreSQL with 16 connections at 100,000 listings (README,
 * bench:preflight): 8 answered ~5,950 calls/s against ~5,150 with one statement a turn; 4, 6 and
 * 12 did no better than 8.
 */
export const TRIAL_BATCH_MAX = 8;

/** Seconds until the next UTC midnight, when every trial quota resets. */
export function nextUtcMidnight(now: Date): Date {
  return new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS);
}

export class TrialLimitExceeded extends QuotaExceeded {
  constructor(scope: "ip" | "host", limit: number, now: Date) {
    super(
      scope,
      limit,
      nextUtcMidnight(now),
      now,
      scope === "ip"
        ? `free trial limit reached: ${limit} calls per client IP per UTC day; pay per call with POST /api/v1/preflight, or retry after the reset`
        : `free trial limit reached for this target host: ${limit} calls per host per UTC day; pay per call with POST /api/v1/preflight, or retry after the reset`,
    );
    this.name = "TrialLimitExceeded";
  }
}

export interface TrialCall {
  ip: string;
  host: string;
  urlNormalized: string;
  /**
   * The answer this call would give if the URL has no cached one: stored as the URL's cached
   * answer by the counting statement itself when the call is let through. Left out when the
   * answer costs more than a lookup (an unknown URL's live probe): the caller then answers a
   * miss and stores its answer afterwards.
   */
  offer?: PreflightReport;
}

type Counted = { ord: number; ip_ok: boolean; host_ok: boolean; report: PreflightReport | null };

/**
 * Counts trial calls against the caller's IP and the target host for their UTC day, in the
 * database so every API process agrees, reads each URL's cached answer and stores the answers
 * offered for URLs that have none, in one statement. The calls of one event-loop turn share that
 * statement (coalesce), up to `batchMax` of them a statement, and are judged as if they had come
 * one after another in call order: the later calls of a URL get the answer its first call stored.
 * A turn with more calls is served by several statements in flight at once, which count against
 * each other exactly as the statements of other turns and other processes do (below), in
 * whichever order the database runs them.
 *
 * Each counter moves only up to its limit: the statement groups a turn's calls by key, raises
 * each counter by what it can grant (the conflict update re-checks the locked row, so concurrent
 * statements cannot overshoot) and records the grant in `granted`, which RETURNING reports; the
 * first calls of that key get it. The host is counted only for calls the IP limit let through:
 * a call refused for the IP's limit never touches the host's count, so one client cannot use up
 * a host's trial for everyone. A call refused for the host's limit still counts against its IP.
 * A refused call stores nothing. Rows are locked IPs first, then hosts, then cached answers, each
 * in key order, so concurrent statements (other turns, other processes) cannot deadlock.
 */
export function createTrialQuota(
  db: Kysely<Database>,
  { batchMax = TRIAL_BATCH_MAX }: { batchMax?: number } = {},
): (call: TrialCall, now: Date) => Promise<PreflightReport | undefined> {
  const counted = (scope: "ip" | "host", want: string, limit: number) => sql`
    insert into trial_counters as c (day, scope, key, count, granted)
    select day, ${scope}, key, n, n from ${sql.table(want)}, async_commit order by day, key
    on conflict (day, scope, key) do update
      set count = least(c.count + excluded.granted, ${limit}), granted = least(c.count + excluded.granted, ${limit}) - c.count
      where c.count < ${limit}
    returning c.day, c.key, c.granted`;

  const consume = coalesce<TrialCall & { at: Date }, PreflightReport | undefined>(async (calls) => {
    // One JSON document for the turn: the offered answers go in as JSON once, not escaped again as text array elements.
    const given = JSON.stringify(
      calls.map((c, i) => ({ ord: i + 1, day: c.at.toISOString().slice(0, 10), ip: c.ip, host: c.host, url: c.urlNormalized, at: c.at.toISOString(), offer: c.offer ?? null })),
    );
    const rows = await executePrepared(db, "trial-calls", sql<Counted>`
      with ${asyncCommitCte},
      req as (select * from jsonb_to_recordset(${given}::jsonb) as t(ord int, day date, ip text, host text, url text, at timestamptz, offer jsonb)),
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
      ),
      cached as (select req.ord, tc.report from req join trial_cache tc on tc.url_normalized = req.url and tc.expires_at > req.at),
      stored as (
        insert into trial_cache as tc (url_normalized, report, created_at, expires_at)
        select distinct on (req.url) req.url, req.offer, req.at, req.at + make_interval(secs => ${TRIAL.cacheSeconds})
        from req join host_ok using (ord)
        where req.offer is not null and not exists (select 1 from cached where cached.ord = req.ord)
        order by req.url, req.ord
        on conflict (url_normalized) do update set report = excluded.report, created_at = excluded.created_at, expires_at = excluded.expires_at
          where tc.expires_at <= excluded.created_at
      )
      select req.ord, exists (select 1 from ip_ok where ip_ok.ord = req.ord) as ip_ok, exists (select 1 from host_ok where host_ok.ord = req.ord) as host_ok,
        (select report from cached where cached.ord = req.ord) as report
      from req`.compile(db));
    const byOrd: Counted[] = [];
    for (const r of rows) byOrd[Number(r.ord) - 1] = r;
    // A URL's first offer let through this turn is its answer for the turn's later calls too.
    const firstOffer = new Map<string, PreflightReport>();
    return calls.map((call, i) => {
      const r = byOrd[i]!;
      if (!r.ip_ok) return new TrialLimitExceeded("ip", TRIAL.perIpPerDay, call.at);
      if (!r.host_ok) return new TrialLimitExceeded("host", TRIAL.perHostPerDay, call.at);
      if (r.report) return r.report;
      if (!call.offer) return firstOffer.get(call.urlNormalized);
      if (!firstOffer.has(call.urlNormalized)) firstOffer.set(call.urlNormalized, call.offer);
      return firstOffer.get(call.urlNormalized);
    });
  }, { maxBatch: batchMax });
  return (call, now) => consume({ ...call, at: now });
}
