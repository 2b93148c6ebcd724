/**
 * similar_price: within this factor of the target's price, either way, and never on price alone:
 * inside the target's category when it has one (case-insensitive), else sharing one of its own
 * tags (decision 0039).
 */
export const SIMILAR_PRICE_FACTOR = 3;

/** One eligible candidate, as the pool is built from. */
export interface CandidateRow {
  id: number | string;
  service_id: string;
  provider_id: string | null;
  domain: string | null;
  category: string | null;
  /** Lower-cased. */
  tags: string[] | null;
  price: number | null;
}

/** What a target matches candidates on; null keys match nothing. */
export interface MatchKeys {
  excludeId: number;
  serviceId: string | null;
  providerId: string | null;
  domain: string | null;
  category: string | null;
  /** Lower-cased; matched against categories and tags, case-insensitive. */
  taskClass: string | null;
  /** Lower-cased tags a similar-price candidate shares with a target that has no category. */
  tags: readonly string[] | null;
  price: number | null;
}

export interface PoolMatch {
  /** Listing ids of the best candidates, best first, with their match tier (0 = same_service). */
  picks: Array<{ id: number; tier: number }>;
  /** Every eligible candidate that matched, before the limit. */
  total: number;
}

const NONE = -1;
const EMPTY = new Int32Array(0);

/** Two ascending position lists as one, without repeats. */
function* merged(a: Int32Array, b: Int32Array): Generator<number> {
  let x = 0;
  let y = 0;
  while (x < a.length || y < b.length) {
    const next = y >= b.length || (x < a.length && a[x]! <= b[y]!) ? a[x++]! : b[y++]!;
    if (x < a.length && a[x] === next) x++;
    if (y < b.length && b[y] === next) y++;
    yield next;
  }
}

/** Ascending position lists as one, without repeats. */
const union = (lists: readonly Int32Array[]) => lists.reduce((a, b) => Int32Array.from(merged(a, b)), EMPTY);

/** How many of these positions pass the test. */
function countIn(positions: Int32Array, test: (i: number) => boolean): number {
  let n = 0;
  for (const i of positions) if (test(i)) n++;
  return n;
}

/**
 * Every eligible alternative of the catalog, held in typed arrays in ranking order (7-day uptime,
 * then 1-hour latency, then URL). Each candidate's match tier is the first of same service,
 * provider, domain, category/task class and similar price it meets; posting lists per key (in
 * ranking order too) give any target its exact count and each tier's best without a pass over
 * the pool (see match()).
 * Strings are interned to small integers; with the posting lists, about 85 bytes per candidate.
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
    /** Positions (ascending, so in ranking order) of the candidates carrying each key. */
    private readonly postings: Map<number, Int32Array>,
  ) {
    this.seen = new Int32Array(ids.length);
  }

  /** seen[i] === stamp: candidate i was counted by the current match() call. */
  private readonly seen: Int32Array;
  private stamp = 0;

  get size(): number {
    return this.ids.length;
  }

  /** A pool of these candidates, given in ranking order. */
  static fromRows(rows: readonly CandidateRow[]): CandidatePool {
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
    const tags = Int32Array.from(tagList);

    const lists = new Map<number, number[]>();
    const post = (k: number, i: number) => {
      if (k === NONE) return;
      const list = lists.get(k);
      if (!list) lists.set(k, [i]);
      else if (list[list.length - 1] !== i) list.push(i);
    };
    for (let i = 0; i < n; i++) {
      for (const column of [service, provider, domain, category, categoryLower]) post(column[i]!, i);
      for (let t = tagStart[i]!; t < tagStart[i + 1]!; t++) post(tags[t]!, i);
    }
    const postings = new Map([...lists].map(([k, list]) => [k, Int32Array.from(list)]));
    return new CandidatePool(ids, service, provider, domain, category, categoryLower, tagStart, tags, price, keys, postings);
  }

  /**
   * The candidates of a target, by posting lists rather than a pass over the pool: the keyed
   * tiers (service, provider, domain, category/task class) are the union of at most five lists,
   * and the similar-price tier is counted over the target's category list (or its tags' lists),
   * so a call costs the size of those lists (a category can hold an eighth of the catalog) plus,
   * only when the keyed tiers leave the limit unfilled, a scan of that scope for price matches
   * that stops at the limit.
   */
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
    // Never on price alone: inside the target's category, else among candidates sharing one of its tags (an unknown key matches no one).
    const sameCat = k.category === null ? null : lookup("t", k.category.toLowerCase());
    const ownTags = sameCat === null ? (k.tags ?? []).map((t) => lookup("t", t)).filter((t) => t >= 0) : [];
    const { ids, service, provider, domain, category, categoryLower, price } = this;
    const near = (i: number) => (sameCat === null ? ownTags.some((t) => this.hasTag(i, t)) : categoryLower[i] === sameCat);
    const inRange = (i: number) => price[i]! >= lo && price[i]! <= hi && near(i);
    /** The first tier candidate i meets (0 = same_service .. 4 = similar_price), or -1. */
    const tierOf = (i: number): number => {
      if (service[i] === svc) return 0;
      if (provider[i] === prov) return 1;
      if (domain[i] === dom) return 2;
      if (category[i] === cat || (task >= 0 && this.matchesTask(i, task))) return 3;
      return inRange(i) ? 4 : -1;
    };
    const list = (key: number) => this.postings.get(key) ?? EMPTY;
    const keyed = [list(svc), list(prov), list(dom), list(cat), list(task)];

    // Price matches are the candidates in range among the category's list, or its tags' lists.
    const priceScope = !hasPrice ? EMPTY : sameCat === null ? union(ownTags.map(list)) : list(sameCat);
    // Count: every price match, plus each keyed candidate outside the price range, once.
    let total = countIn(priceScope, inRange);
    if (++this.stamp === 0x7fffffff) this.seen.fill((this.stamp = 0));
    const stamp = this.stamp;
    let targetMatched = false;
    for (const positions of keyed) {
      for (const i of positions) {
        if (this.seen[i] === stamp) continue;
        this.seen[i] = stamp;
        if (!inRange(i)) total++;
        if (ids[i] === k.excludeId) targetMatched = true;
      }
    }
    if (!targetMatched) {
      // The target can match on price alone.
      const at = this.positionOf(k.excludeId);
      if (at >= 0 && inRange(at)) targetMatched = true;
    }
    if (targetMatched) total--;

    // Picks: the best of each tier in tier order until the limit; lists are in ranking order.
    const picks: Array<{ id: number; tier: number }> = [];
    const take = (tier: number, positions: Iterable<number>) => {
      for (const i of positions) {
        if (picks.length >= limit) return;
        if (tierOf(i) === tier && ids[i] !== k.excludeId) picks.push({ id: ids[i]!, tier });
      }
    };
    take(0, keyed[0]!);
    take(1, keyed[1]!);
    take(2, keyed[2]!);
    take(3, merged(keyed[3]!, keyed[4]!));
    if (picks.length < limit) take(4, priceScope);
    return { picks, total };
  }

  /** The position of a listing id in the pool, or -1 (ids are unique; a linear search, once a call). */
  private positionOf(id: number): number {
    return id < 0 ? -1 : this.ids.indexOf(id);
  }

  private matchesTask(i: number, task: number): boolean {
    return this.categoryLower[i] === task || this.hasTag(i, task);
  }

  private hasTag(i: number, tag: number): boolean {
    for (let t = this.tagStart[i]!; t < this.tagStart[i + 1]!; t++) if (this.tags[t] === tag) return true;
    return false;
  }
}
