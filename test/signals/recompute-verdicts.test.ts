import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recomputeSnapshots, recomputeVerdicts } from "../../src/services/evidence/index.js";
import { seedListing, seedProbes, series } from "../helpers/catalog-fixtures.js";
import { createTestContext, type TestContext } from "../helpers/context.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

const MIN = 60_000;
const snapshot = (id: number) => ctx.db.db.selectFrom("signal_snapshots").selectAll().where("listing_id", "=", id).executeTakeFirstOrThrow();

describe("recomputeVerdicts", () => {
  it("writes only the verdicts and contexts that changed since the last recompute", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const id = await seedListing(ctx, { url: `https://svc${i}.recompute.test/api`, provider: "0xrecompute", price: "0.01" });
      await seedProbes(ctx, id, series(30 * MIN, 5 * MIN));
      ids.push(id);
    }
    await recomputeSnapshots(ctx);
    const first = await recomputeVerdicts(ctx.db, ctx.clock.now());
    expect(first).toMatchObject({ listings: 5, written: 5 });
    expect(await recomputeVerdicts(ctx.db, ctx.clock.now())).toMatchObject({ listings: 5, written: 0 });

    // A decoy price moves this listing's verdict and the whole provider group's prices.
    await ctx.db.db.updateTable("listings").set({ price_usdc: "5000", price_atomic: "5000000000" }).where("id", "=", ids[0]!).execute();
    expect(await recomputeVerdicts(ctx.db, ctx.clock.now())).toMatchObject({ listings: 5, written: 5 });
    expect((await snapshot(ids[0]!)).warnings).toContain("decoy_price_extreme");
    expect((await snapshot(ids[1]!)).detail).toMatchObject({ context: { group: { group_p90_price_usdc: expect.any(Number) } } });

    // An erroring listing elsewhere changes its own verdict only.
    const lone = await seedListing(ctx, { url: "https://lone.recompute.test/api", price: "0.01" });
    await seedProbes(ctx, lone, series(30 * MIN, 5 * MIN));
    await recomputeSnapshots(ctx);
    await recomputeVerdicts(ctx.db, ctx.clock.now());
    await seedProbes(
      ctx,
      lone,
      series(4 * MIN, MIN, () => ({ healthy: false })).map((p) => ({ ...p, ago: p.ago - 900 })),
    );
    await recomputeSnapshots(ctx);
    const after = await recomputeVerdicts(ctx.db, ctx.clock.now());
    expect(after.written).toBe(1);
    expect((await snapshot(lone)).warnings.length).toBeGreaterThan(0);
  });
});
