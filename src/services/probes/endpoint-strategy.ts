import { sql } from "kysely";
import { CLAIM_BATCH_SIZE, CLAIM_SCAN_FACTOR, endpointLeaseMs } from "./constants.js";
import { probeEndpoint, type EndpointJob } from "./endpoint-probe.js";
import type { ProbeMetrics } from "./metrics.js";
import { rollupListings } from "./rollup.js";
import { nextSlot } from "./slots.js";
import type { ProbeResult, ProbeStrategy } from "./types.js";

/**
 * Endpoint probes as a scheduler strategy. A claim leases due listings; the write that stores
 * their probes also moves next_probe_at to each listing's next slot and ends the lease, in one
 * transaction with the rollup of the touched buckets. A process that dies holding a lease
 * leaves its listings due at the lease's end, and another process takes them then.
 */
export function endpointStrategy(intervalMs: number, metrics: ProbeMetrics): ProbeStrategy<EndpointJob, ProbeResult> {
  const leaseMs = endpointLeaseMs(intervalMs);
  return {
    name: "endpoint",
    claimBatchSize: CLAIM_BATCH_SIZE,

    async claim(db, { owner, now, limit, excludeHosts, perHost }) {
      const at = now.toISOString();
      // The due rows ahead in schedule order, at most `perHost` of any one host, so a claim is
      // spread over hosts even when one host's listings fill the head of the queue. Locking
      // re-checks the due condition, so rows another process claimed meanwhile are skipped.
      // A claimed row is due again when its lease ends (next_probe_at = lease_until): that is
      // the takeover after a crash, and it keeps rows in flight out of the head of the index.
      const leaseUntil = new Date(now.getTime() + leaseMs).toISOString();
      const { rows } = await sql<{ id: number; url: string; method: string; host: string; network: string | null; asset: string | null }>`
        update listings as l
        set lease_owner = ${owner}, lease_until = ${leaseUntil}::timestamptz, next_probe_at = ${leaseUntil}::timestamptz
        where l.id in (
          select id from listings
          where id in (
            select id from (
              select id, row_number() over (partition by host order by next_probe_at, id) as rn
              from (
                select id, host, next_probe_at from listings
                where is_active and next_probe_at <= ${at}::timestamptz
                  and (lease_until is null or lease_until < ${at}::timestamptz)
                  and host <> all(${excludeHosts}::text[])
                order by next_probe_at
                limit ${limit * CLAIM_SCAN_FACTOR}
              ) as due
            ) as ranked
            where rn <= ${perHost}
          )
          and is_active and next_probe_at <= ${at}::timestamptz and (lease_until is null or lease_until < ${at}::timestamptz)
          order by next_probe_at
          limit ${limit}
          for no key update skip locked
        )
        returning l.id, l.url, l.method, l.host, l.network, l.asset`.execute(db);
      return rows.map((r) => ({ listingId: Number(r.id), url: r.url, method: r.method, host: r.host, network: r.network, asset: r.asset }));
    },

    async run(job, http, now) {
      const result = await probeEndpoint(job, http, now);
      metrics.probes.inc({ outcome: result.outcome });
      if (result.latencyMs !== null) metrics.probeDuration.observe({ outcome: result.outcome }, result.latencyMs / 1000);
      return result;
    },

    async record(db, owner, done, now) {
      if (done.length === 0) return;
      const r = done.map((d) => d.result);
      const ids = r.map((p) => p.listingId);
      const next = ids.map((id) => nextSlot(id, now, intervalMs).toISOString());
      const since = new Date(Math.min(...r.map((p) => p.probedAt.getTime())));
      await db.transaction().execute(async (trx) => {
        await sql`
          with stored as (
            insert into probes (listing_id, probed_at, outcome, status_code, error_kind, latency_ms, price_usdc, challenge_version)
            select * from unnest(
              ${ids}::bigint[], ${r.map((p) => p.probedAt.toISOString())}::timestamptz[], ${r.map((p) => p.outcome)}::text[],
              ${r.map((p) => p.statusCode)}::integer[], ${r.map((p) => p.errorKind)}::text[], ${r.map((p) => p.latencyMs)}::integer[],
              ${r.map((p) => p.priceUsdc)}::numeric[], ${r.map((p) => p.challengeVersion)}::smallint[])
            returning 1
          )
          update listings as l
          set next_probe_at = u.next, lease_owner = null, lease_until = null
          from unnest(${ids}::bigint[], ${next}::timestamptz[]) as u(id, next)
          where l.id = u.id and l.lease_owner = ${owner}`.execute(trx);
        await rollupListings(trx, ids, since);
      });
    },

    async release(db, owner, jobs, now) {
      if (jobs.length === 0) return;
      await sql`
        update listings set lease_owner = null, lease_until = null, next_probe_at = ${now.toISOString()}::timestamptz
        where id = any(${jobs.map((j) => j.listingId)}::bigint[]) and lease_owner = ${owner}`.execute(db);
    },

    isError: (result) => result.outcome === "error",
    listingIdOf: (job) => job.listingId,
  };
}
