import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { verdictGeneration } from "../signals/verdict-generation.js";

export const WHATS_NEW = { defaultWindowMs: 24 * 3_600_000, maxAgeMs: 30 * 86_400_000, clockSkewMs: 60_000, defaultLimit: 200, maxLimit: 500 } as const;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * Spec 2.10: the catalog's changes since `since`. Added = first seen since then and still
 * active; removed = turned inactive since then. Each list is capped at `limit`, newest first.
 */
export async function whatsNew(db: Kysely<Database>, since: Date, limit: number, now: Date) {
  const listing = () =>
    db
      .selectFrom("listings as l")
      .innerJoin("services as sv", "sv.service_id", "l.service_id")
      .leftJoin("providers as p", "p.provider_id", "l.provider_id")
      .select([
        "l.url",
        "l.service_id",
        "sv.name as service_name",
        sql<string | null>`coalesce(p.name, l.provider_id)`.as("provider"),
        "l.domain",
        "l.category",
        sql<string | null>`l.price_usdc::text`.as("price_usdc"),
        "l.currency",
      ]);

  const [added, removed, counts, polls, current] = await Promise.all([
    listing().select("l.first_seen_at").where("l.is_active", "=", true).where("l.first_seen_at", ">=", since)
      .orderBy("l.first_seen_at", "desc").orderBy("l.url_normalized").limit(limit + 1).execute(),
    listing().select("l.last_seen_at").where("l.is_active", "=", false).where("l.deactivated_at", ">=", since)
      .orderBy("l.deactivated_at", "desc").orderBy("l.url_normalized").limit(limit + 1).execute(),
    sql<{ added: number; removed: number; added_services: number; removed_services: number }>`
      select
        (select count(*) from listings where is_active and first_seen_at >= ${since})::int as added,
        (select count(*) from listings where not is_active and deactivated_at >= ${since})::int as removed,
        (select count(*) from services s where s.first_seen_at >= ${since}
           and exists (select 1 from listings l where l.service_id = s.service_id and l.is_active))::int as added_services,
        (select count(distinct l.service_id) from listings l where not l.is_active and l.deactivated_at >= ${since}
           and not exists (select 1 from listings a where a.service_id = l.service_id and a.is_active))::int as removed_services`.execute(db),
    db.selectFrom("catalog_polls").where("started_at", ">=", since).where("started_at", "<=", now)
      .select([sql<number>`count(*)::int`.as("n"), sql<Date | null>`min(started_at)`.as("first"), sql<Date | null>`max(started_at)`.as("last")])
      .executeTakeFirstOrThrow(),
    currentCatalog(db),
  ]);

  const c = counts.rows[0]!;
  return {
    since: since.toISOString(),
    until: now.toISOString(),
    window_hours: Math.round(((now.getTime() - since.getTime()) / 3_600_000) * 100) / 100,
    added_endpoints: added.slice(0, limit).map(({ first_seen_at, ...r }) => ({ ...r, first_seen_at: first_seen_at.toISOString() })),
    removed_endpoints: removed.slice(0, limit).map(({ last_seen_at, ...r }) => ({ ...r, last_seen_at: last_seen_at.toISOString() })),
    summary: {
      added_endpoints_count: c.added,
      removed_endpoints_count: c.removed,
      added_services_count: c.added_services,
      removed_services_count: c.removed_services,
      polls_in_window: polls.n,
      current_active_endpoints: current.endpoints,
      current_active_services: current.services,
      first_poll_at: iso(polls.first),
      last_poll_at: iso(polls.last),
    },
    truncated: added.length > limit || removed.length > limit,
    limit,
  };
}

/**
 * The active catalog's size as the last verdict recompute counted it (it reads every active
 * listing every 30 s anyway); counted here only before the first recompute.
 */
async function currentCatalog(db: Kysely<Database>): Promise<{ endpoints: number; services: number }> {
  const g = await verdictGeneration(db);
  if (g.generation > 0) return { endpoints: g.activeEndpoints, services: g.activeServices };
  const { rows } = await sql<{ endpoints: number; services: number }>`
    select count(*)::int as endpoints, count(distinct service_id)::int as services from listings where is_active`.execute(db);
  return rows[0]!;
}
