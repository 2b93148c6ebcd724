import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

/** similar_price: within this factor of the target's price, either way. */
export const SIMILAR_PRICE_FACTOR = 3;

/** What a target matches candidates on; null keys match nothing. */
export interface MatchKeys {
  excludeId: number;
  serviceId: string | null;
  providerId: string | null;
  domain: string | null;
  category: string | null;
  /** Lower-cased; matched against categories and tags, case-insensitive. */
  taskClass: string | null;
  price: number | null;
}

export interface PoolMatch {
  /** Listing ids of the best candidates, best first, with their match tier (0 = same_service). */
  picks: Array<{ id: number; tier: number }>;
  /** Every eligible candidate that matched, before the limit. */
  total: number;
}

const NONE = -1;

/**
 * Every eligible alternative of the catalog, held in typed arrays in ranking order (7-day uptime,
 * then 1-hour latency, then URL), so one pass answers any target: each candidate's match tier
 * is the first of same service, provider, domain, category/task class and similar price it
 * meets, the count is exact, and the first `limit` seen per tier are the best of that tier.
 * Strings are interned to small integers; about 45 bytes per candidate.
 */
export class CandidatePool {
  private constructor(
    /** Listing ids (bigserial: an upsert-heavy catalog can pass 2^31, so doubles, exact to 2^53). */
    private readonly ids: Float64Array,
    private readonly service: Int32Array,
    private readonly provider: Int32Array,
    private readonly domain: Int32Array,
    private readonly category: Int32Array,
    private readonly categoryLower: Int32Array,
    /** Lower-cased tag keys of candidate i: tags[tagStart[i] .. tagStart[i + 1]). */
    private readonly tagStart: Int32Array,
    private readonly tags: Int32Array,
    private readonly price: Float64Array,
    private readonly keys: Map<string, number>,
  ) {}

  get size(): number {
    return this.ids.length;
  }

  /**
   * Eligible: active, last probe healthy, not erroring over the last hour, not dead over 7 days,
   * no critical warning (spec 4.6), as of the last verdict recompute.
   */
  static async load(db: Kysely<Database>): Promise<CandidatePool> {
    const rows = await db
      .selectFrom("listings as l")
      .innerJoin("signal_snapshots as s", "s.listing_id", "l.id")
      .select(["l.id", "l.service_id", "l.provider_id", "l.domain", "l.category", sql<string[]>`lower_tags(l.tags)`.as("tags"), sql<number | null>`l.price_usdc::float8`.as("price")])
      .where("l.is_active", "=", true)
      .where("s.critical", "=", false)
      .where("s.last_outcome", "=", "healthy")
      .where(sql<boolean>`not (s.probes_1h > 0 and s.healthy_1h = 0)`)
      .where(sql<boolean>`not ('dead_7d' = any(s.warnings))`)
      .orderBy(sql`s.uptime_7d_pct desc nulls last`)
      .orderBy(sql`s.avg_latency_1h_ms asc nulls last`)
      .orderBy("l.url_normalized")
      .orderBy("l.id")
      .execute();

    const keys = new Map<string, number>();
    const key = (kind: string, v: string | null) => {
      if (v === null) return NONE;
      const k = `${kind}\u0000${v}`;
      let n = keys.get(k);
      if (n === undefined) keys.set(k, (n = keys.size));
      return n;
    };
    const n = rows.length;
    const column = () => new Int32Array(n);
    const ids = new Float64Array(n);
    const [service, provider, domain, category, categoryLower] = [column(), column(), column(), column(), column()];
    const tagStart = new Int32Array(n + 1);
    const tagList: number[] = [];
    const price = new Float64Array(n);
    rows.forEach((r, i) => {
      ids[i] = Number(r.id);
      service[i] = key("s", r.service_id);
      provider[i] = key("p", r.provider_id);
      domain[i] = key("d", r.domain);
      category[i] = key("c", r.category);
      categoryLower[i] = key("t", r.category?.toLowerCase() ?? null);
      tagStart[i] = tagList.length;
      for (const t of r.tags ?? []) tagList.push(key("t", t));
      price[i] = r.price ?? Number.NaN;
    });
    tagStart[n] = tagList.length;
    return new CandidatePool(ids, service, provider, domain, category, categoryLower, tagStart, Int32Array.from(tagList), price, keys);
  }

  match(k: MatchKeys, limit: number): PoolMatch {
    const lookup = (kind: string, v: string | null) => (v === null ? NONE - 1 : (this.keys.get(`${kind}\u0000${v}`) ?? NONE - 1));
    const svc = lookup("s", k.serviceId);
    const prov = lookup("p", k.providerId);
    const dom = lookup("d", k.domain);
    const cat = lookup("c", k.category);
    const task = lookup("t", k.taskClass);
    const hasPrice = k.price !== null && k.price > 0;
    // Without a target price the range is empty (NaN compares false).
    const lo = hasPrice ? k.price! / SIMILAR_PRICE_FACTOR : Number.NaN;
    const hi = hasPrice ? k.price! * SIMILAR_PRICE_FACTOR : Number.NaN;

    const byTier: number[][] = [[], [], [], [], []];
    let total = 0;
    // Typed arrays in locals: this loop is the whole cost of a call (about 10 ns a candidate).
    const { ids, service, provider, domain, category, price } = this;
    for (let i = 0; i < ids.length; i++) {
      let tier: number;
      if (service[i] === svc) tier = 0;
      else if (provider[i] === prov) tier = 1;
      else if (domain[i] === dom) tier = 2;
      else if (category[i] === cat || (task >= 0 && this.matchesTask(i, task))) tier = 3;
      else if (price[i]! >= lo && price[i]! <= hi) tier = 4;
      else continue;
      if (ids[i] === k.excludeId) continue;
      total++;
      const picks = byTier[tier]!;
      if (picks.length < limit) picks.push(i);
    }
    const picks = byTier.flatMap((list, tier) => list.map((i) => ({ id: this.ids[i]!, tier }))).slice(0, limit);
    return { picks, total };
  }

  private matchesTask(i: number, task: number): boolean {
    if (this.categoryLower[i] === task) return true;
    for (let t = this.tagStart[i]!; t < this.tagStart[i + 1]!; t++) if (this.tags[t] === task) return true;
    return false;
  }
}
