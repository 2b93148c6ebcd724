import { sql } from "kysely";
import { MATCH_REASONS } from "@x402-lookout/contracts/codes";
import { tierScore } from "@x402-lookout/contracts/catalog/alternative-score";
import type { DbHandle } from "../../db/client.js";
import { perGeneration } from "../../db/read-models/per-generation.js";
import { matchRows, templatesByHost } from "../../db/read-models/match-rows.js";
import { createRowsByKey } from "../../db/read-models/rows-by-key.js";
import { categoryIsSet, domainOf, specificTags } from "../catalog/index.js";
import { listingsWithNames, providerName } from "../catalog/listing-queries.js";
import { NotFound } from "../errors.js";
import type { MatchKeys } from "./candidate-pool.js";
import { loadCandidates, type Candidates } from "./candidates.js";

export { MATCH_REASONS, type MatchReason } from "@x402-lookout/contracts/codes";
export type MatchStrategy = "url_target" | "task_class_only" | "url_target_unknown_fallback";

export interface AlternativesQuery {
  url?: string;
  taskClass?: string;
  limit: number;
}

export interface AlternativesDeps {
  db: Pick<DbHandle, "db" | "prepared" | "generation">;
}

/**
 * Healthy substitutes for a blocked endpoint (/spec#alternatives). Candidates match by the first of
 * same service, provider, domain, category (or task class) and similar price (within the
 * target's category); each candidate's own stored verdict must be pay and nothing may delist it
 * (candidates.ts). Ranking inside a match tier: 7-day uptime, then 1-hour latency.
 */
export function createAlternativesService({ db: handle }: AlternativesDeps) {
  const candidates = perGeneration(handle, () => loadCandidates(handle.db));
  const lookup = createTargetLookup(handle);
  return {
    find: (q: AlternativesQuery) => alternatives(lookup, candidates, q),
    /** Builds the pool of the current generation ahead of the first call. */
    warm: async () => void (await candidates()),
  };
}

export type AlternativesService = ReturnType<typeof createAlternativesService>;

/** A call's target by the one URL matcher: the rows of one event-loop turn's keys in one statement. */
function createTargetLookup(handle: Pick<DbHandle, "db" | "prepared">) {
  const query = listingsWithNames(handle.db).select([
    "l.id",
    "l.url",
    "l.match_key",
    "l.method",
    "l.is_active",
    "l.service_id",
    "sv.name as service",
    "l.provider_id",
    providerName().as("provider"),
    "l.domain",
    "l.category",
    "l.tags",
    sql<string | null>`l.price_usdc::text`.as("price_usdc"),
    "l.currency",
  ]);
  const byKey = createRowsByKey(handle, "alternatives-targets", query);
  const templates = templatesByHost(query);
  return async (url: string) => (await matchRows([url], byKey, templates)).get(url);
}

type TargetLookup = ReturnType<typeof createTargetLookup>;

/** A call reads one listing, the target's (one statement per event-loop turn for all calls); the candidates and their fields come from the generation's pool. */
async function alternatives(lookup: TargetLookup, current: () => Promise<Candidates>, q: AlternativesQuery) {
  const taskClass = q.taskClass?.trim().toLowerCase() ?? null;
  const [target, { pool, items }] = await Promise.all([q.url ? lookup(q.url) : undefined, current()]);

  const strategy: MatchStrategy = !q.url ? "task_class_only" : target ? "url_target" : "url_target_unknown_fallback";
  const keys: MatchKeys = target
    ? {
        excludeId: Number(target.id),
        serviceId: target.service_id,
        providerId: target.provider_id,
        domain: target.domain,
        // Only a category that names what the target is; else similar prices must share a tag of its own (decision 0039).
        category: categoryIsSet(target.category, target.tags) ? target.category : null,
        taskClass,
        tags: specificTags(target.tags),
        price: target.price_usdc === null ? null : Number(target.price_usdc),
      }
    : { excludeId: -1, serviceId: null, providerId: null, domain: q.url ? domainOf(q.url) : null, category: null, taskClass, tags: null, price: null };

  const { picks, total } = pool.match(keys, q.limit);
  if (picks.length === 0) {
    throw new NotFound(
      `no healthy alternatives found for ${q.url ? "this URL" : "this task class"}${taskClass ? ` (task class "${taskClass}")` : ""}`,
      "no_alternatives",
    );
  }
  return {
    target: target
      ? {
          url: target.url,
          known: true,
          service: target.service,
          service_id: target.service_id,
          provider: target.provider,
          domain: target.domain,
          category: target.category,
          price_usdc: target.price_usdc,
          currency: target.currency,
        }
      : q.url
        ? { url: q.url, known: false }
        : { task_class: q.taskClass! },
    match_strategy: strategy,
    alternatives: picks.map(({ id, tier }) => {
      const { rank_score, ...item } = items.get(id)!;
      return { ...item, match_reason: MATCH_REASONS[tier]!, score: tierScore(tier, rank_score) };
    }),
    candidate_count: total,
  };
}
