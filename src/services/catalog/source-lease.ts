import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

/** Makes sure every configured source has its row (new ones are due at once). */
export async function registerSources(db: Kysely<Database>, sources: readonly string[], now: Date): Promise<void> {
  if (sources.length === 0) return;
  await db
    .insertInto("catalog_sources")
    .values([...new Set(sources)].sort().map((url) => ({ url, created_at: now, next_poll_at: now })))
    .onConflict((oc) => oc.column("url").doNothing())
    .execute();
}

/**
 * Claims the due sources among `sources` for `owner`: due (next_poll_at reached), and not
 * leased by a live ingester. Rows another transaction holds are skipped, not waited for, so
 * several ingesters split the sources and each source is polled once per cadence. The claim
 * moves next_poll_at one cadence on at once, so the source is not due again mid-poll.
 */
export async function claimDueSources(
  db: Kysely<Database>,
  sources: readonly string[],
  owner: string,
  now: Date,
  leaseMs: number,
  cadenceMs: number,
): Promise<string[]> {
  if (sources.length === 0) return [];
  const leaseUntil = new Date(now.getTime() + leaseMs);
  const nextPollAt = new Date(now.getTime() + cadenceMs);
  const result = await sql<{ url: string }>`
    update catalog_sources as s
    set lease_owner = ${owner}, lease_until = ${leaseUntil}, last_poll_started_at = ${now}, next_poll_at = ${nextPollAt}
    where s.url in (
      select url from catalog_sources
      where url in (${sql.join([...sources])})
        and next_poll_at <= ${now}
        and (lease_until is null or lease_until <= ${now})
      order by url
      for update skip locked
    )
    returning s.url`.execute(db);
  return result.rows.map((r) => r.url).sort();
}

export interface SourceOutcome {
  ok: boolean;
  status: "ok" | "partial" | "error";
  error: string | null;
  /** Whether the outcome counts as a failure for backoff (an interrupted poll does not). */
  failed: boolean;
}

/**
 * Records how the poll of a claimed source went and releases the lease. A success resets the
 * failure count and keeps the next poll one cadence after the claim; a failure backs off.
 * Returns the source's next poll time.
 */
export async function releaseSource(
  db: Kysely<Database>,
  source: string,
  owner: string,
  now: Date,
  outcome: SourceOutcome,
  backoffMs: (failures: number) => number,
): Promise<Date> {
  const current = await db.selectFrom("catalog_sources").select(["consecutive_failures", "next_poll_at"]).where("url", "=", source).executeTakeFirstOrThrow();
  const failures = outcome.failed ? current.consecutive_failures + 1 : outcome.ok ? 0 : current.consecutive_failures;
  const nextPollAt = outcome.failed ? new Date(now.getTime() + backoffMs(failures)) : outcome.ok ? current.next_poll_at : now;
  await db
    .updateTable("catalog_sources")
    .set({
      last_poll_finished_at: now,
      last_status: outcome.status,
      last_error: outcome.error,
      consecutive_failures: failures,
      next_poll_at: nextPollAt,
      lease_owner: null,
      lease_until: null,
      ...(outcome.ok ? { last_success_at: now } : {}),
    })
    .where("url", "=", source)
    .where("lease_owner", "=", owner)
    .execute();
  return nextPollAt;
}
