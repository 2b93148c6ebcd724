import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAlternativesService, type AlternativesService } from "../../src/services/alternatives/service.js";
import { DAY, HOUR, MINUTE } from "../../src/services/signals/constants.js";
import { recompute, seedListing, seedProbes, series } from "../helpers/catalog-fixtures.js";
import { createTestContext, type TestContext } from "../helpers/context.js";

let ctx: TestContext;
let service: AlternativesService;
const ids: Record<string, number> = {};

beforeAll(async () => {
  ctx = await createTestContext();
  service = createAlternativesService({ db: ctx.db });
  const seed = async (name: string, url: string, category: string) => {
    ids[name] = await seedListing(ctx, { url, service: "Maps", provider: "0xmaps", price: "0.01", category });
    await seedProbes(ctx, ids[name]!, series(7 * DAY, HOUR));
  };
  await seed("a", "https://maps.example/a", "geo");
  await seed("b", "https://maps.example/b", "geo");
  await seed("tagged", "https://tiles.example/t", "Imagery");
  await ctx.db.db
    .updateTable("listings")
    .set({ tags: ["Satellite", "TILES"] })
    .where("id", "=", ids.tagged!)
    .execute();
  await recompute(ctx);
});
afterAll(() => ctx?.close());

describe("the alternatives candidate pool", () => {
  it("never offers the target itself", async () => {
    const r = await service.find({ url: "https://maps.example/a", limit: 10 });
    expect(r.alternatives.map((a) => a.url)).toEqual(["https://maps.example/b", "https://tiles.example/t"]);
    expect(r.candidate_count).toBe(2);
  });

  it("matches a task class against tags, case-insensitive", async () => {
    const r = await service.find({ taskClass: "tiles", limit: 5 });
    expect(r.alternatives.map((a) => [a.url, a.match_reason])).toEqual([["https://tiles.example/t", "same_category"]]);
    const byCategory = await service.find({ taskClass: "imagery", limit: 5 });
    expect(byCategory.alternatives.map((a) => a.url)).toEqual(["https://tiles.example/t"]);
  });

  it("follows the verdicts: a candidate that starts failing leaves after the next recompute", async () => {
    const before = (await ctx.db.generation.read()).generation;
    ctx.clock.advance(MINUTE);
    await seedProbes(
      ctx,
      ids.b!,
      series(30 * MINUTE, 9 * MINUTE, () => ({ healthy: false, status: 503 })),
    );
    await recompute(ctx);
    expect((await ctx.db.generation.read()).generation).toBeGreaterThan(before);
    const r = await service.find({ url: "https://maps.example/a", limit: 10 });
    expect(r.alternatives.map((a) => a.url)).toEqual(["https://tiles.example/t"]);
    expect(r.candidate_count).toBe(1);
  });

  it("answers concurrent calls of one generation alike", async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => service.find({ url: "https://maps.example/a", limit: 1 })));
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
  });
});
