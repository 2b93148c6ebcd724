import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { categoryIsSet } from "../catalog/category.js";
import { listingsWithNames, providerName } from "../catalog/listing-queries.js";
import { confidenceOf, verdictFrom } from "../signals/engine.js";
import { CandidatePool } from "./candidate-pool.js";

/** alternativeScore's within-tier part in SQL (packages/contracts/src/catalog/alternative-score.ts). */
const RANK_SCORE_SQL = sql`(coalesce(s.uptime_7d_pct, 0) * 5 - least(coalesce(s.avg_latency_1h_ms, 10000), 10000) / 100.0)::numeric`;

/** A candidate as an alternatives answer lists it (/spec#alternatives), but for its match_reason. */
export interface CandidateItem {
  url: string;
  service_id: string;
  service: string;
  provider: string | null;
  domain: string | null;
  category: string | null;
  price_usdc: string | null;
  currency: string | null;
  uptime_1h_pct: number | null;
  uptime_7d_pct: number | null;
  avg_latency_1h_ms: number | null;
  /** The within-tier part of the item's score (alternativeScore), which the pool's order follows. */
  rank_score: number;
}

/** The eligible candidates of one verdict generation: the pool to match in, and what to list of each. */
export interface Candidates {
  pool: CandidatePool;
  items: ReadonlyMap<number, CandidateItem>;
}

/**
 * Whether a candidate may be offered: its own stored verdict (the last recompute's, forensics
 * mode, so a superset of preflight's codes) recommends pay by the engine's rule, and nothing
 * delists it (ghost_listing included). No verdict yet (risk_score null) is not pay.
 */
export const offerable = (v: { warnings: readonly string[]; delist_reasons: readonly string[]; risk_score: number | null; probes_1h: number | null }) =>
  v.risk_score !== null &&
  v.delist_reasons.length === 0 &&
  verdictFrom(v.warnings, true, confidenceOf(v.probes_1h ?? 0), "forensics").recommended_action === "pay";

/**
 * Eligible: active and offerable (above); the SQL conditions (last probe healthy, not erroring
 * over the last hour, not dead over 7 days, no critical warning: /spec#alternatives; a verdict, no delist
 * reason) only narrow the read.
 * One statement gives both the match keys and the listed fields, so a call needs no statement
 * for its picks. Repeated strings (service and provider names, domains, categories) are shared.
 */
export async function loadCandidates(db: Kysely<Database>): Promise<Candidates> {
  const rows = await listingsWithNames(db)
    .innerJoin("signal_snapshots as s", "s.listing_id", "l.id")
    .select([
      "l.id",
      "l.url",
      "l.service_id",
      "sv.name as service",
      "l.provider_id",
      providerName().as("provider"),
      "l.domain",
      "l.category",
      sql<string[]>`lower_tags(l.tags)`.as("tags"),
      sql<number | null>`l.price_usdc::float8`.as("price"),
      sql<string | null>`l.price_usdc::text`.as("price_usdc"),
      "l.currency",
      sql<number | null>`round(s.uptime_1h_pct::numeric, 1)::float8`.as("uptime_1h_pct"),
      sql<number | null>`round(s.uptime_7d_pct::numeric, 1)::float8`.as("uptime_7d_pct"),
      "s.avg_latency_1h_ms",
      sql<number>`round(${RANK_SCORE_SQL}, 2)::float8`.as("rank_score"),
      "s.warnings",
      "s.delist_reasons",
      "s.risk_score",
      "s.probes_1h",
    ])
    .where("l.is_active", "=", true)
    .where("s.critical", "=", false)
    // Healthy now, or a 400/422 to a probe without the declared input after a healthy answer this hour (decision 0046).
    .where(sql<boolean>`(s.last_outcome = 'healthy' or (s.last_outcome = 'needs_input' and s.healthy_1h > 0))`)
    .where(sql<boolean>`not (s.probes_1h > 0 and s.healthy_1h = 0)`)
    .where(sql<boolean>`not ('dead_7d' = any(s.warnings))`)
    .where("s.risk_score", "is not", null)
    .where(sql<boolean>`s.delist_reasons = '{}'`)
    // The order of the score each item shows (within its tier), so the two never disagree.
    .orderBy(sql`round(${RANK_SCORE_SQL}, 2) desc`)
    .orderBy("l.url_normalized")
    .orderBy("l.id")
    .execute()
    .then((all) => all.filter(offerable));

  const strings = new Map<string, string>();
  const shared = <T extends string | null>(v: T): T => {
    if (v === null) return v;
    const seen = strings.get(v);
    if (seen !== undefined) return seen as T;
    strings.set(v, v);
    return v;
  };
  const items = new Map<number, CandidateItem>();
  for (const r of rows) {
    items.set(Number(r.id), {
      url: r.url,
      service_id: shared(r.service_id),
      service: shared(r.service),
      provider: shared(r.provider),
      domain: shared(r.domain),
      category: shared(r.category),
      price_usdc: shared(r.price_usdc),
      currency: shared(r.currency),
      uptime_1h_pct: r.uptime_1h_pct,
      uptime_7d_pct: r.uptime_7d_pct,
      avg_latency_1h_ms: r.avg_latency_1h_ms,
      rank_score: r.rank_score,
    });
  }
  // A fallback category matches nothing (decision 0039): the pool sees none; the answer lists it.
  return { pool: CandidatePool.fromRows(rows.map((r) => (categoryIsSet(r.category, r.tags) ? r : { ...r, category: null }))), items };
}
