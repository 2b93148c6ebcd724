import { sql } from "kysely";
import { claim, completeMany, release, type LeaseTable } from "../../db/jobs/lease.js";
import { CLAIM_BATCH_SIZE, CLAIM_SCAN_FACTOR, CONFIRM_INTERVAL_MS, endpointLeaseMs } from "./constants.js";
import { nextProbeAt } from "./confirm.js";
import { probeEndpoint, type EndpointJob } from "./endpoint-probe.js";
import type { ProbeMetrics } from "./metrics.js";
import { JOB_COLUMNS, jobOf, type JobRow } from "./endpoint-job.js";
import { probeHistories } from "./probe-history.js";
import { type ProbeRecord, probesInsert, quoteDigests, rollupListings } from "../evidence/index.js";
import { probeSightings, recordQuotes } from "../quotes/index.js";
import type { ProbeStrategy } from "./types.js";

/** Active listings as leased jobs: due at their next probe slot. */
const LISTINGS: LeaseTable<"listings"> = { table: "listings", key: "id", keyType: "bigint", due: "next_probe_at", expired: "<" };

/**
 * Endpoint probes as a scheduler strategy. A claim leases due listings; the write that stores
 * their probes also moves next_probe_at to each listing's next slot and ends the lease, in one
 * transaction with the rollup of the touched buckets. A process that dies holding a lease
 * leaves its listings due at the lease's end, and another process takes them then.
 */
export function endpointStrategy(
  intervalMs: number,
  metrics: ProbeMetrics,
  onRefused: (job: EndpointJob) => void = () => {},
  vantage = "default",
): ProbeStrategy<EndpointJob, ProbeRecord> {
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
      const ranked = sql<boolean>`p.id in (
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
      )`;
      const rows = await claim<JobRow, "listings">(db, LISTINGS, {
        owner,
        now,
        leaseMs,
        alias: "l",
        pick: { where: [ranked, sql<boolean>`p.is_active`], orderBy: sql`p.next_probe_at`, limit, lock: "no key update" },
        set: (until) => [sql`next_probe_at = ${until}`],
        returning: JOB_COLUMNS,
      });
      return rows.map(jobOf);
    },

    async run(job, http, now) {
      const result = { ...(await probeEndpoint(job, http, now)), vantage };
      metrics.probes.inc({ outcome: result.outcome });
      if (result.outcome === "blocked") onRefused(job);
      if (result.latencyMs !== null) metrics.probeDuration.observe({ outcome: result.outcome }, result.latencyMs / 1000);
      return result;
    },

    async record(db, owner, done, now) {
      if (done.length === 0) return;
      const r = done.map((d) => d.result);
      const ids = r.map((p) => p.listingId);
      const since = new Date(Math.min(...r.map((p) => p.probedAt.getTime())));
      const digests = await quoteDigests(r);
      await db.transaction().execute(async (trx) => {
        const history = await probeHistories(trx, r);
        const next = r.map((p, i) => nextProbeAt(p.listingId, now, intervalMs, history[i]!));
        metrics.confirmations.inc(next.filter((d) => d.getTime() - now.getTime() <= CONFIRM_INTERVAL_MS).length);
        // One statement stores the probes and ends their leases; the next keeps their terms.
        await completeMany(trx, LISTINGS, { owner, keys: ids, due: next, with: probesInsert("stored", r, digests) });
        await recordQuotes(trx, probeSightings(r, digests));
        await rollupListings(trx, ids, since);
      });
    },

    release: (db, owner, jobs, now) =>
      release(
        db,
        LISTINGS,
        owner,
        jobs.map((j) => j.listingId),
        now,
      ),

    // A refused target is a configuration matter; a 2xx without a challenge and a 400/422 refusing our input are answers: none is an error.
    isError: (result) => result.outcome === "error",
    listingIdOf: (job) => job.listingId,
  };
}
