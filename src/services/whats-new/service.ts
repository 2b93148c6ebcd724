import { sql, type Kysely } from "kysely";
import { WHATS_NEW_LIMIT } from "@x402-lookout/contracts/catalog/limits";
import type { DbHandle } from "../../db/client.js";
import { perGeneration } from "../../db/read-models/per-generation.js";
import type { Database } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import { usdcDecimal } from "../../lib/money.js";
import { listingsWithNames, providerName } from "../catalog/listing-queries.js";
import { CatalogTimeline } from "./catalog-timeline.js";

export const WHATS_NEW = {
  defaultWindowMs: 24 * 3_600_000,
  maxAgeMs: 30 * 86_400_000,
  defaultLimit: WHATS_NEW_LIMIT.default,
  maxLimit: WHATS_NEW_LIMIT.max,
} as const;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export interface WhatsNewDeps {
  db: Pick<DbHandle, "db" | "generation">;
  clock: Clock;
}

/**
 * The catalog's changes since `since` (/spec#whats-new). Added = first seen since then and still
 * active; removed = turned inactive since then. Each list is capped at `limit`, newest first.
 * Counts and lists come from one CatalogTimeline per verdict generation (docs/catalog-products.md),
 * so they agree with each other and cost a binary search. Any window's lists are the newest
 * entries of the timeline's two lanes, so the entries of the first maxLimit of each lane are
 * described once per generation too; a call only reads the polls live.
 */
export function createWhatsNewService({ db: handle, clock }: WhatsNewDeps) {
  const { db } = handle;
  const current = perGeneration(handle, async () => {
    const timeline = await CatalogTimeline.load(db, clock.now());
    const { addedIds, removedIds } = timeline.window(new Date(0), WHATS_NEW.maxLimit);
    const [added, removed] = await Promise.all([listingsById(db, addedIds), listingsById(db, removedIds)]);
    return {
      timeline,
      added: new Map(added.map(({ id, first_seen_at, last_seen_at: _, ...r }) => [id, { ...r, first_seen_at: first_seen_at.toISOString() }])),
      removed: new Map(removed.map(({ id, last_seen_at, first_seen_at: _, ...r }) => [id, { ...r, last_seen_at: last_seen_at.toISOString() }])),
    };
  });
  return {
    warm: async () => void (await current()),
    async changes(asked: Date, limit: number, now: Date) {
      // The route refuses a since after now; a clock stepped back between its check and here must not open a negative window.
      const since = asked > now ? now : asked;
      const [{ timeline: t, added, removed }, polls] = await Promise.all([
        current(),
        db
          .selectFrom("catalog_polls")
          .where("started_at", ">=", since)
          .where("started_at", "<=", now)
          // The configured catalogs' polls: origin manifests are polled beside them on their own cadence.
          .where("source_id", "in", (q) => q.selectFrom("catalog_sources").select("catalog_sources.id").where("catalog_sources.kind", "=", "bazaar"))
          .select([sql<number>`count(*)::int`.as("n"), sql<Date | null>`min(started_at)`.as("first"), sql<Date | null>`max(started_at)`.as("last")])
          .executeTakeFirstOrThrow(),
      ]);
      const w = t.window(since, limit);
      return {
        since: since.toISOString(),
        until: now.toISOString(),
        window_hours: Math.round(((now.getTime() - since.getTime()) / 3_600_000) * 100) / 100,
        added_endpoints: described(w.addedIds, added),
        removed_endpoints: described(w.removedIds, removed),
        summary: {
          added_endpoints_count: w.addedCount,
          removed_endpoints_count: w.removedCount,
          added_services_count: w.addedServices,
          removed_services_count: w.removedServices,
          polls_in_window: polls.n,
          current_active_endpoints: t.activeEndpoints,
          current_active_services: t.activeServices,
          first_poll_at: iso(polls.first),
          last_poll_at: iso(polls.last),
        },
        truncated: w.addedCount > limit || w.removedCount > limit,
        limit,
      };
    },
  };
}

export type WhatsNewService = ReturnType<typeof createWhatsNewService>;

/** The entries of these ids, in order (a listing deleted since the timeline was built is left out). */
const described = <E>(ids: number[], entries: Map<number, E>): E[] => ids.flatMap((id) => entries.get(id) ?? []);

/** The listed fields of these listings. */
async function listingsById(db: Kysely<Database>, ids: number[]) {
  if (ids.length === 0) return [];
  const rows = await listingsWithNames(db)
    .select([
      "l.id",
      "l.url",
      "l.service_id",
      "sv.name as service_name",
      providerName().as("provider"),
      "l.domain",
      "l.category",
      sql<string | null>`l.price_usdc::text`.as("price_usdc"),
      "l.currency",
      "l.first_seen_at",
      "l.last_seen_at",
    ])
    .where("l.id", "in", ids)
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), price_usdc: usdcDecimal(r.price_usdc) }));
}
