import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { ApiError } from "../../http/errors.js";
import { normalizeUrl } from "../../lib/url-normalize.js";
import { domainOf } from "../catalog/index.js";

export const MATCH_REASONS = ["same_service", "same_provider", "same_domain", "same_category", "similar_price"] as const;
export type MatchReason = (typeof MATCH_REASONS)[number];
export type MatchStrategy = "url_target" | "task_class_only" | "url_target_unknown_fallback";
/** similar_price: within this factor of the target's price, either way. */
export const SIMILAR_PRICE_FACTOR = 3;

export interface AlternativesQuery {
  url?: string;
  taskClass?: string;
  limit: number;
}

interface Keys {
  excludeId: number;
  serviceId: string | null;
  providerId: string | null;
  domain: string | null;
  category: string | null;
  taskClass: string | null;
  price: string | null;
}

/**
 * Healthy substitutes for a blocked endpoint (spec 2.8, 4.6). Candidates match by the first of
 * same service, provider, domain, category (or task class) and similar price; they must have
 * answered healthy, not be erroring over the last hour, not be dead over 7 days and carry no
 * critical warning. Ranking inside a match tier: 7-day uptime, then 1-hour latency.
 */
export async function alternatives(db: Kysely<Database>, q: AlternativesQuery) {
  const taskClass = q.taskClass?.trim().toLowerCase() ?? null;
  const target = q.url
    ? await db
        .selectFrom("listings as l")
        .innerJoin("services as sv", "sv.service_id", "l.service_id")
        .leftJoin("providers as p", "p.provider_id", "l.provider_id")
        .select(["l.id", "l.url", "l.service_id", "sv.name as service", "l.provider_id", sql<string | null>`coalesce(p.name, l.provider_id)`.as("provider"), "l.domain", "l.category", sql<string | null>`l.price_usdc::text`.as("price_usdc"), "l.currency"])
        .where("l.url_normalized", "=", normalizeUrl(q.url))
        .orderBy("l.is_active", "desc")
        .executeTakeFirst()
    : undefined;

  const strategy: MatchStrategy = !q.url ? "task_class_only" : target ? "url_target" : "url_target_unknown_fallback";
  const keys: Keys = target
    ? { excludeId: target.id, serviceId: target.service_id, providerId: target.provider_id, domain: target.domain, category: target.category, taskClass, price: target.price_usdc }
    : { excludeId: -1, serviceId: null, providerId: null, domain: q.url ? domainOf(q.url) : null, category: null, taskClass, price: null };

  const rows = await candidates(db, keys, q.limit);
  if (rows.length === 0) {
    throw new ApiError(404, "no_alternatives", `no healthy alternatives found for ${q.url ? "this URL" : "this task class"}${taskClass ? ` (task class "${taskClass}")` : ""}`);
  }
  return {
    target: target
      ? { url: target.url, known: true, service: target.service, service_id: target.service_id, provider: target.provider, domain: target.domain, category: target.category, price_usdc: target.price_usdc, currency: target.currency }
      : q.url
        ? { url: q.url, known: false }
        : { task_class: q.taskClass! },
    match_strategy: strategy,
    alternatives: rows.map(({ tier, total: _total, ...item }) => ({ ...item, match_reason: MATCH_REASONS[tier]! })),
    candidate_count: rows[0]!.total,
  };
}

async function candidates(db: Kysely<Database>, k: Keys, limit: number) {
  const price = k.price !== null && Number(k.price) > 0 ? Number(k.price) : null;
  const taskMatch = k.taskClass ? sql<boolean>`(l.category = ${k.taskClass} or lower_tags(l.tags) @> array[${k.taskClass}]::text[])` : sql<boolean>`false`;
  const categoryMatch = k.category ? sql<boolean>`(l.category = ${k.category} or ${taskMatch})` : taskMatch;
  const priceMatch = price !== null ? sql<boolean>`l.price_usdc between ${price / SIMILAR_PRICE_FACTOR} and ${price * SIMILAR_PRICE_FACTOR}` : sql<boolean>`false`;
  const eq = (col: string, v: string | null) => (v === null ? sql<boolean>`false` : sql<boolean>`${sql.ref(col)} = ${v}`);

  const tier = sql<number>`case
    when ${eq("l.service_id", k.serviceId)} then 0
    when ${eq("l.provider_id", k.providerId)} then 1
    when ${eq("l.domain", k.domain)} then 2
    when ${categoryMatch} then 3
    else 4 end`;

  return db
    .selectFrom("listings as l")
    .innerJoin("services as sv", "sv.service_id", "l.service_id")
    .innerJoin("signal_snapshots as s", "s.listing_id", "l.id")
    .leftJoin("providers as p", "p.provider_id", "l.provider_id")
    .select([
      "l.url",
      "sv.name as service",
      "l.service_id",
      sql<string | null>`coalesce(p.name, l.provider_id)`.as("provider"),
      "l.domain",
      "l.category",
      sql<string | null>`l.price_usdc::text`.as("price_usdc"),
      "l.currency",
      sql<number | null>`round(s.uptime_1h_pct::numeric, 1)::float8`.as("uptime_1h_pct"),
      sql<number | null>`round(s.uptime_7d_pct::numeric, 1)::float8`.as("uptime_7d_pct"),
      "s.avg_latency_1h_ms as avg_latency_1h_ms",
      tier.as("tier"),
      sql<number>`(count(*) over ())::int`.as("total"),
    ])
    .where("l.is_active", "=", true)
    .where("l.id", "<>", k.excludeId)
    .where(sql<boolean>`(${eq("l.service_id", k.serviceId)} or ${eq("l.provider_id", k.providerId)} or ${eq("l.domain", k.domain)} or ${categoryMatch} or ${priceMatch})`)
    .where("s.critical", "=", false)
    .where("s.last_outcome", "=", "healthy")
    .where(sql<boolean>`not (s.probes_1h > 0 and s.healthy_1h = 0)`)
    .where(sql<boolean>`not ('dead_7d' = any(s.warnings))`)
    .orderBy("tier")
    .orderBy(sql`s.uptime_7d_pct desc nulls last`)
    .orderBy(sql`s.avg_latency_1h_ms asc nulls last`)
    .orderBy("l.url_normalized")
    .limit(limit)
    .execute();
}
