import { sql } from "kysely";
import { insertNewProbes, type ProbeRecord, quoteDigests, rollupListings } from "../evidence/index.js";
import { probeSightings, recordQuotes } from "../quotes/index.js";
import { JOB_COLUMNS, jobOf, type JobRow } from "./endpoint-job.js";
import { probeEndpoint, type EndpointJob } from "./endpoint-probe.js";
import type { ProbeMetrics } from "./metrics.js";
import type { ProbeStrategy } from "./types.js";
import { VANTAGE_CONFIRM_LEASE_MS } from "../evidence/index.js";

/**
 * Cross-vantage confirmation probes (decision 0048): requests another vantage opened
 * (vantage_confirmations) are leased, probed from here and marked confirmed with the probe. The
 * listing's own schedule (next_probe_at, confirm.ts) is left alone; this probe only joins its evidence.
 */
export function vantageConfirmStrategy(vantage: string, metrics: ProbeMetrics): ProbeStrategy<EndpointJob, ProbeRecord> {
  return {
    name: "vantage_confirm",
    claimBatchSize: 100,

    async claim(db, { owner, now, limit, excludeHosts }) {
      const at = now.toISOString();
      const until = new Date(now.getTime() + VANTAGE_CONFIRM_LEASE_MS).toISOString();
      const { rows } = await sql<JobRow>`
        with picked as (
          select c.listing_id from vantage_confirmations as c join listings as l on l.id = c.listing_id
          where c.confirmed_at is null and c.requested_by <> ${vantage} and l.is_active
            and (c.lease_until is null or c.lease_until < ${at}::timestamptz) and l.host <> all(${excludeHosts}::text[])
          order by c.requested_at limit ${limit}
          for update of c skip locked
        ), leased as (
          update vantage_confirmations as c set lease_owner = ${owner}, lease_until = ${until}::timestamptz
          from picked where c.listing_id = picked.listing_id returning c.listing_id
        )
        select ${JOB_COLUMNS}
        from leased join listings as l on l.id = leased.listing_id`.execute(db);
      return rows.map(jobOf);
    },

    async run(job, http, now) {
      const result = { ...(await probeEndpoint(job, http, now)), vantage };
      metrics.probes.inc({ outcome: result.outcome });
      return result;
    },

    async record(db, owner, done) {
      if (done.length === 0) return;
      const r = done.map((d) => d.result);
      const since = new Date(Math.min(...r.map((p) => p.probedAt.getTime())));
      await db.transaction().execute(async (trx) => {
        const stored = await insertNewProbes(trx, r);
        await recordQuotes(trx, probeSightings(stored, await quoteDigests(stored)));
        await rollupListings(
          trx,
          stored.map((p) => p.listingId),
          since,
        );
        await sql`update vantage_confirmations as c set confirmed_by = ${vantage}, confirmed_at = v.at, lease_owner = null, lease_until = null
          from unnest(${r.map((p) => p.listingId)}::bigint[], ${r.map((p) => p.probedAt.toISOString())}::timestamptz[]) as v(id, at)
          where c.listing_id = v.id and c.lease_owner = ${owner}`.execute(trx);
      });
    },

    async release(db, owner, jobs) {
      await sql`update vantage_confirmations set lease_owner = null, lease_until = null
        where lease_owner = ${owner} and listing_id = any(${jobs.map((j) => j.listingId)}::bigint[])`.execute(db);
    },

    isError: (result) => result.outcome === "error",
    listingIdOf: (job) => job.listingId,
  };
}
