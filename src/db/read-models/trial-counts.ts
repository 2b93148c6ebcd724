import { sql } from "kysely";
import { asyncCommitCte } from "../async-commit.js";
import type { DbHandle } from "../client.js";
import { coalesce } from "../coalesce.js";

/** One trial call of `at`'s UTC day; `offer`: the answer to store for its URL if let through and none is cached. */
export interface TrialCount<A> {
  ip: string;
  /** The client's network (decision 0027): a host's calls are also counted per network. */
  net: string;
  host: string;
  /** False when the answer is the caller's alone (bound to its quote): never served from the cache, always counted. */
  cacheable?: boolean;
  urlNormalized: string;
  at: Date;
  offer?: A;
  /** What the offer's verdict is: a cached answer of another verdict is stale, and the offer replaces it. */
  verdict?: string;
}

/** Let through with the URL's cached answer (undefined: none, and none offered), or refused by a limit. */
export type TrialCounted<A> = { refusedBy: null; answer: A | undefined } | { refusedBy: "ip" | "host" | "host_net" };

export interface TrialLimits {
  perIpPerDay: number;
  perHostPerDay: number;
  /** A host's calls one client network may make per day. */
  perHostPerNetwork: number;
  cacheSeconds: number;
  /** The most calls one counting statement serves (decision 0009, amendment of session 10). */
  batchMax: number;
}

type Row = { ord: number; ip_ok: boolean; net_ok: boolean; host_ok: boolean; report: unknown };

/**
 * Counts trial calls against their IP, their host per client network and their host for the UTC
 * day, reads each URL's cached answer and stores the answers offered for URLs that have none (or
 * one made from another verdict), in one prepared statement for the calls of one event-loop turn,
 * up to `batchMax` a statement (decision 0009). The calls of one statement are judged as if they
 * had come one after another in call order: a URL's later calls get the answer its first call
 * stored. Each counter moves only up to its limit (the conflict update re-checks the locked row,
 * so concurrent statements cannot overshoot) and the grant is written beside it (`granted`, which
 * RETURNING reports). Every call counts against its IP; a call answered from the cache (fresh
 * when the statement starts) costs the host nothing (decision 0027); the others count against
 * their host's share for their network, and those it lets through against the host. A refused
 * call stores nothing. Rows are locked IPs first, then host shares, hosts, cached answers, each
 * in key order, so concurrent statements (other turns, other processes) cannot deadlock.
 */
export function createTrialCounts<A>(handle: Pick<DbHandle, "db" | "prepared">, limits: TrialLimits): (call: TrialCount<A>) => Promise<TrialCounted<A>> {
  const counted = (scope: "ip" | "host_net" | "host", want: string, limit: number) => sql`
    insert into trial_counters as c (day, scope, key, count, granted)
    select day, ${scope}, key, n, n from ${sql.table(want)}, async_commit order by day, key
    on conflict (day, scope, key) do update
      set count = least(c.count + excluded.granted, ${limit}), granted = least(c.count + excluded.granted, ${limit}) - c.count
      where c.count < ${limit}
    returning c.day, c.key, c.granted`;

  return coalesce<TrialCount<A>, TrialCounted<A>>(
    async (calls) => {
      // One JSON document for the turn: the offered answers go in as JSON once, not escaped again as text array elements.
      const given = JSON.stringify(
        calls.map((c, i) => ({
          ord: i + 1,
          day: c.at.toISOString().slice(0, 10),
          ip: c.ip,
          net: c.net,
          host: c.host,
          cacheable: c.cacheable !== false,
          url: c.urlNormalized,
          at: c.at.toISOString(),
          offer: c.offer ?? null,
          verdict: c.verdict ?? null,
        })),
      );
      const rows = await handle.prepared.execute(
        "trial-calls",
        sql<Row>`
      with ${asyncCommitCte},
      req as (select * from jsonb_to_recordset(${given}::jsonb) as t(ord int, day date, ip text, net text, host text, cacheable boolean, url text, at timestamptz, offer jsonb, verdict text)),
      cached as (
        select req.ord, tc.report from req join trial_cache tc on tc.url_normalized = req.url and tc.expires_at > req.at
        where req.cacheable and (req.verdict is null or tc.verdict is not distinct from req.verdict)
      ),
      ip_want as (select day, ip as key, least(count(*), ${limits.perIpPerDay})::int as n from req group by day, ip),
      ip_counted as (${counted("ip", "ip_want", limits.perIpPerDay)}),
      ip_ok as (
        select r.ord, r.day, r.host, r.net from (select req.*, row_number() over (partition by day, ip order by ord) as nth from req) r
        join ip_counted g on g.day = r.day and g.key = r.ip where r.nth <= g.granted
      ),
      charged as (select * from ip_ok where not exists (select 1 from cached where cached.ord = ip_ok.ord)),
      net_want as (select day, host || ' ' || net as key, least(count(*), ${limits.perHostPerNetwork})::int as n from charged group by day, host, net),
      net_counted as (${counted("host_net", "net_want", limits.perHostPerNetwork)}),
      net_ok as (
        select r.ord, r.day, r.host from (select charged.*, row_number() over (partition by day, host, net order by ord) as nth from charged) r
        join net_counted g on g.day = r.day and g.key = r.host || ' ' || r.net where r.nth <= g.granted
      ),
      host_want as (select day, host as key, least(count(*), ${limits.perHostPerDay})::int as n from net_ok group by day, host),
      host_counted as (${counted("host", "host_want", limits.perHostPerDay)}),
      host_ok as (
        select r.ord from (select net_ok.*, row_number() over (partition by day, host order by ord) as nth from net_ok) r
        join host_counted g on g.day = r.day and g.key = r.host where r.nth <= g.granted
      ),
      stored as (
        insert into trial_cache as tc (url_normalized, report, verdict, created_at, expires_at)
        select distinct on (req.url) req.url, req.offer, req.verdict, req.at, req.at + make_interval(secs => ${limits.cacheSeconds})
        from req join host_ok using (ord)
        where req.offer is not null and not exists (select 1 from cached where cached.ord = req.ord)
        order by req.url, req.ord
        on conflict (url_normalized) do update set report = excluded.report, verdict = excluded.verdict, created_at = excluded.created_at, expires_at = excluded.expires_at
          where tc.expires_at <= excluded.created_at or tc.verdict is distinct from excluded.verdict
      )
      select req.ord, exists (select 1 from ip_ok where ip_ok.ord = req.ord) as ip_ok,
        exists (select 1 from net_ok where net_ok.ord = req.ord) as net_ok, exists (select 1 from host_ok where host_ok.ord = req.ord) as host_ok,
        (select report from cached where cached.ord = req.ord) as report
      from req`.compile(handle.db),
      );
      const byOrd: Row[] = [];
      for (const r of rows) byOrd[Number(r.ord) - 1] = r;
      // A URL's first offer let through this turn is its answer for the turn's later calls too.
      const firstOffer = new Map<string, A>();
      return calls.map((call, i): TrialCounted<A> => {
        const r = byOrd[i]!;
        if (!r.ip_ok) return { refusedBy: "ip" };
        if (r.report) return { refusedBy: null, answer: r.report as A };
        if (!r.net_ok) return { refusedBy: "host_net" };
        if (!r.host_ok) return { refusedBy: "host" };
        if (!call.offer) return { refusedBy: null, answer: firstOffer.get(call.urlNormalized) };
        if (!firstOffer.has(call.urlNormalized)) firstOffer.set(call.urlNormalized, call.offer);
        return { refusedBy: null, answer: firstOffer.get(call.urlNormalized) };
      });
    },
    { maxBatch: limits.batchMax },
  );
}
