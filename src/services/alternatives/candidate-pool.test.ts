import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CandidatePool, SIMILAR_PRICE_FACTOR, type CandidateRow, type MatchKeys } from "./candidate-pool.js";

/** The rule of /spec#alternatives written as plainly as possible: one pass, first matching tier wins. */
function reference(rows: readonly CandidateRow[], k: MatchKeys, limit: number) {
  const byTier: Array<Array<{ id: number; tier: number }>> = [[], [], [], [], []];
  let total = 0;
  for (const r of rows) {
    const taskMatch = k.taskClass !== null && (r.category?.toLowerCase() === k.taskClass || (r.tags ?? []).includes(k.taskClass));
    // Never on price alone: inside the target's category, else sharing one of its own tags.
    const near = k.category !== null ? r.category?.toLowerCase() === k.category.toLowerCase() : (k.tags ?? []).some((t) => (r.tags ?? []).includes(t));
    const inRange =
      near && k.price !== null && k.price > 0 && r.price !== null && r.price >= k.price / SIMILAR_PRICE_FACTOR && r.price <= k.price * SIMILAR_PRICE_FACTOR;
    const tier =
      k.serviceId !== null && r.service_id === k.serviceId
        ? 0
        : k.providerId !== null && r.provider_id === k.providerId
          ? 1
          : k.domain !== null && r.domain === k.domain
            ? 2
            : (k.category !== null && r.category === k.category) || taskMatch
              ? 3
              : inRange
                ? 4
                : -1;
    if (tier < 0 || Number(r.id) === k.excludeId) continue;
    total++;
    byTier[tier]!.push({ id: Number(r.id), tier });
  }
  return { picks: byTier.flat().slice(0, limit), total };
}

const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);
const row = fc.record({
  service_id: pick(["s1", "s2", "s3", "s4"]),
  provider_id: fc.option(pick(["p1", "p2", "p3"])),
  domain: fc.option(pick(["a.example", "b.example", "c.example"])),
  category: fc.option(pick(["Geo", "geo", "AI", "data"])),
  tags: fc.option(fc.array(pick(["geo", "ai", "tiles", "weather"]), { maxLength: 3 })),
  price: fc.option(pick([0.001, 0.002, 0.005, 0.01, 0.03, 0.1, 2500])),
});
const keys = fc.record({
  serviceId: fc.option(pick(["s1", "s2", "s9"])),
  providerId: fc.option(pick(["p1", "p3", "p9"])),
  domain: fc.option(pick(["a.example", "c.example", "z.example"])),
  category: fc.option(pick(["Geo", "geo", "AI", "data", "none"])),
  taskClass: fc.option(pick(["geo", "tiles", "ai", "none"])),
  tags: fc.option(fc.array(pick(["tiles", "weather", "none"]), { maxLength: 2 })),
  price: fc.option(pick([0, 0.001, 0.004, 0.01, 0.1, 2500])),
});

describe("CandidatePool.match", () => {
  it("agrees with the one-pass rule on random pools: tiers, order, exclusion of the target and the count", () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 60 }), keys, fc.integer({ min: -1, max: 70 }), fc.integer({ min: 1, max: 10 }), (raw, k, excludeId, limit) => {
        const rows = raw.map((r, i) => ({ ...r, id: i + 1 }));
        const target: MatchKeys = { ...k, excludeId };
        expect(CandidatePool.fromRows(rows).match(target, limit)).toEqual(reference(rows, target, limit));
      }),
      { numRuns: 2000 },
    );
  });

  it("stays correct across many calls on one pool (per-call bookkeeping is reset)", () => {
    const rows: CandidateRow[] = Array.from({ length: 500 }, (_, i) => ({
      id: i + 1,
      service_id: `s${i % 7}`,
      provider_id: `p${i % 5}`,
      domain: `d${i % 11}`,
      category: `c${i % 3}`,
      tags: [`t${i % 4}`],
      price: 0.001 * (1 + (i % 9)),
    }));
    const pool = CandidatePool.fromRows(rows);
    for (let n = 0; n < 300; n++) {
      const k: MatchKeys = {
        excludeId: (n % 500) + 1,
        serviceId: `s${n % 8}`,
        providerId: `p${n % 6}`,
        domain: `d${n % 12}`,
        category: n % 3 === 0 ? null : `c${n % 4}`,
        taskClass: `t${n % 5}`,
        tags: n % 2 === 0 ? null : [`t${n % 3}`],
        price: 0.001 * (1 + (n % 10)),
      };
      expect(pool.match(k, 1 + (n % 10))).toEqual(reference(rows, k, 1 + (n % 10)));
    }
  });
});
