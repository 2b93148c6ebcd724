import { sql, type Kysely } from "kysely";
import { claim, complete, release, type LeaseTable } from "../../db/jobs/lease.js";
import type { Database } from "../../db/schema.js";
import { HOST_CHECK_CLAIM_BATCH_SIZE, HOST_CHECK_INTERVAL_MS, HOST_CHECK_RETRY_MS, HOST_DISCOVERY_INTERVAL_MS, LEASE_MS } from "./constants.js";
import { checkHost, type HostCheckJob, type HostCheckResult } from "./host-check.js";
import type { ProbeMetrics } from "./metrics.js";
import type { ProbeStrategy } from "./types.js";

/** Gives every host of an active listing a host_checks row, due at once (first sight). */
export async function discoverHosts(db: Kysely<Database>, now: Date): Promise<number> {
  const result = await sql`
    insert into host_checks (host, next_check_at, updated_at)
    select distinct host, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
    from listings where is_active
    on conflict (host) do nothing`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/** Hosts as leased jobs: due at their next check. */
const HOSTS: LeaseTable<"host_checks"> = { table: "host_checks", key: "host", keyType: "text", due: "next_check_at", expired: "<" };

/** Host checks as a scheduler strategy; the lease and due time live in host_checks. */
export function hostCheckStrategy(metrics: ProbeMetrics): ProbeStrategy<HostCheckJob, HostCheckResult> {
  let discoveredAt = Number.NEGATIVE_INFINITY;
  return {
    name: "host_check",
    claimBatchSize: HOST_CHECK_CLAIM_BATCH_SIZE,

    async claim(db, { owner, now, limit, excludeHosts }) {
      if (now.getTime() - discoveredAt >= HOST_DISCOVERY_INTERVAL_MS || now.getTime() < discoveredAt) {
        await discoverHosts(db, now);
        discoveredAt = now.getTime();
      }
      const rows = await claim<{ host: string; url: string | null }, "host_checks">(db, HOSTS, {
        owner,
        now,
        leaseMs: LEASE_MS,
        alias: "h",
        pick: { where: [sql<boolean>`p.host <> all(${excludeHosts}::text[])`], orderBy: sql`p.next_check_at`, limit, lock: "no key update" },
        returning: sql`h.host, (select l.url from listings as l where l.host = h.host and l.is_active limit 1) as url`,
      });
      return rows.map((r) => ({ host: r.host, origin: r.url ? new URL(r.url).origin : null }));
    },

    async run(job, http) {
      const result = await checkHost(job, http);
      metrics.hostChecks.inc({ result: result.status });
      return result;
    },

    async record(db, owner, done, now) {
      await db.transaction().execute(async (trx) => {
        for (const { job, result } of done) {
          const at = now.toISOString();
          const common = { updated_at: at, evidence: JSON.stringify(result.evidence) };
          const { next_check_at: due, ...set } =
            result.status === "inconclusive" || result.status === "no_listings"
              ? {
                  ...common,
                  last_error: result.error,
                  next_check_at: new Date(now.getTime() + (result.error ? HOST_CHECK_RETRY_MS : HOST_CHECK_INTERVAL_MS)).toISOString(),
                }
              : {
                  ...common,
                  last_error: null,
                  next_check_at: new Date(now.getTime() + HOST_CHECK_INTERVAL_MS).toISOString(),
                  wildcard_402_detected: result.wildcard402,
                  wildcard_402_checked_at: at,
                  spa_fallback_detected: result.spaFallback,
                  spa_fallback_checked_at: at,
                  effective_count: result.effective?.count ?? null,
                  effective_count_basis: result.effective?.basis ?? null,
                  sitemap_url_count: result.effective?.sitemapUrlCount ?? null,
                  manifest_resource_count: result.effective?.manifestResourceCount ?? null,
                };
          await complete(trx, HOSTS, { owner, key: job.host, due, set });
        }
      });
    },

    release: (db, owner, jobs, now) =>
      release(
        db,
        HOSTS,
        owner,
        jobs.map((j) => j.host),
        now,
      ),

    isError: (result) => result.status === "inconclusive",
    listingIdOf: () => undefined,
  };
}
