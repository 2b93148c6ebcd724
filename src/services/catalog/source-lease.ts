import { sql, type Kysely } from "kysely";
import { claim, complete, fail, type LeaseTable } from "../../db/jobs/lease.js";
import type { Database } from "../../db/schema.js";
import { SOURCE_BACKOFF } from "./backoff.js";
import type { CatalogSource } from "./source-spec.js";

/**
 * Makes sure every configured source has its row (new ones are due at once), and that a source
 * whose address moved (the demo's new ports) is polled at its new address, at once, under the same id.
 */
export async function registerSources(db: Kysely<Database>, sources: readonly CatalogSource[], now: Date): Promise<void> {
  if (sources.length === 0) return;
  await db
    .insertInto("catalog_sources")
    .values([...sources].sort((a, b) => (a.id < b.id ? -1 : 1)).map((s) => ({ id: s.id, url: s.url, kind: s.kind, created_at: now, next_poll_at: now })))
    .onConflict((oc) =>
      oc
        .column("id")
        // A new address is a new catalog to read: due now (a lease on the old address too is void).
        .doUpdateSet({ url: (eb) => eb.ref("excluded.url"), next_poll_at: now, lease_owner: null, lease_until: null })
        .where(sql<boolean>`catalog_sources.url is distinct from excluded.url`),
    )
    .execute();
}

/** The catalog sources as leased jobs: one row per source id. */
const SOURCES: LeaseTable<"catalog_sources"> = { table: "catalog_sources", key: "id", keyType: "text", due: "next_poll_at", expired: "<=" };

/**
 * Claims the due sources among `sources` (ids) for `owner`, not leased by a live ingester; several
 * ingesters split the sources and each source is polled once per cadence. The claim moves
 * next_poll_at one cadence on at once, so the source is not due again mid-poll.
 */
export async function claimDueSources(
  db: Kysely<Database>,
  sources: readonly string[],
  owner: string,
  now: Date,
  leaseMs: number,
  cadenceMs: number,
  limit?: number,
): Promise<string[]> {
  if (sources.length === 0) return [];
  const nextPollAt = new Date(now.getTime() + cadenceMs);
  const rows = await claim<{ id: string }, "catalog_sources">(db, SOURCES, {
    owner,
    now,
    leaseMs,
    pick: {
      where: [sql<boolean>`p.id in (${sql.join([...sources])})`],
      orderBy: sql`p.next_poll_at, p.id`,
      lock: "update",
      ...(limit === undefined ? {} : { limit }),
    },
    set: () => [sql`last_poll_started_at = ${now}`, sql`next_poll_at = ${nextPollAt}`],
    returning: sql`t.id`,
  });
  return rows.map((r) => r.id).sort();
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
 * failure count and keeps the next poll one cadence after the claim; a failure backs off; an
 * interrupted poll is due again now. Returns the source's next poll time.
 */
export async function releaseSource(
  db: Kysely<Database>,
  source: string,
  owner: string,
  now: Date,
  outcome: SourceOutcome,
  random: () => number,
): Promise<Date> {
  const current = await db.selectFrom("catalog_sources").select(["consecutive_failures", "next_poll_at"]).where("id", "=", source).executeTakeFirstOrThrow();
  const failures = outcome.failed ? current.consecutive_failures + 1 : outcome.ok ? 0 : current.consecutive_failures;
  const set = {
    last_poll_finished_at: now,
    last_status: outcome.status,
    last_error: outcome.error,
    consecutive_failures: failures,
    ...(outcome.ok ? { last_success_at: now } : {}),
  };
  if (outcome.failed) return (await fail(db, SOURCES, { owner, key: source, set, now, failures, backoff: SOURCE_BACKOFF, random })).due;
  const due = outcome.ok ? current.next_poll_at : now;
  await complete(db, SOURCES, { owner, key: source, set, due });
  return due;
}
