import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { delistDiff, delistSnapshot } from "../../src/services/delist/feed.js";
import { recordDailyFlags } from "../../src/services/delist/record-flags.js";
import { DAY, HOUR, MINUTE } from "../../src/services/signals/constants.js";
import { recompute, seedListing, seedProbes, type ProbeSeed } from "../helpers/catalog-fixtures.js";
import { createTestContext, type TestContext } from "../helpers/context.js";

let ctx: TestContext;
const ids: Record<string, number> = {};
const D1 = new Date("2026-11-20T12:00:00.000Z");

/** Hourly probes from 8 days before the first day to 6 days after it, so every day has evidence. */
const hourly = (healthy: (i: number) => boolean = () => true): ProbeSeed[] =>
  Array.from({ length: 14 * 24 }, (_, i) => ({ ago: (i - 6 * 24) * HOUR + 30 * MINUTE, healthy: healthy(i), status: healthy(i) ? 402 : 503 }));

const setPrice = (name: string, price: string) => ctx.db.db.updateTable("listings").set({ price_usdc: price }).where("id", "=", ids[name]!).execute();
/** The prober's work at the end of a day's cycle: verdicts, then the day's flags. */
const cycle = async () => {
  await recompute(ctx);
  return recordDailyFlags(ctx);
};
const snapshot = (scope: "all" | "critical" | "ghost" = "all", limit = 2000) => delistSnapshot(ctx, { scope, limit });
const entry = (s: Awaited<ReturnType<typeof snapshot>>, name: string) => s.should_delist.find((e) => e.url === `https://${name}.example/api`);

beforeAll(async () => {
  ctx = await createTestContext();
  ctx.clock.set(D1);
  const listed40d = new Date(D1.getTime() - 40 * DAY);
  const seed = async (name: string, extra: Partial<Parameters<typeof seedListing>[1]>, probes: ProbeSeed[]) => {
    ids[name] = await seedListing(ctx, {
      url: `https://${name}.example/api`,
      service: name,
      provider: `0x${name}`,
      price: "0.01",
      firstSeenAt: listed40d,
      ...extra,
    });
    await seedProbes(ctx, ids[name]!, probes);
  };
  await seed("decoy", { price: "2500", l30dCalls: 100 }, hourly());
  await seed("ghost", { l30dCalls: 0, lastCalledAt: new Date(D1.getTime() - 52 * DAY) }, hourly());
  await seed("toggler", { price: "2500", l30dCalls: null }, hourly());
  await seed(
    "lowup",
    { price: "2500" },
    hourly((i) => i % 10 !== 0),
  );
  await seed(
    "deadnow",
    {},
    [10, 20, 25].map((m) => ({ ago: m * MINUTE, healthy: false, status: 500 })),
  );
  await seed("healthy", {}, hourly());
});
afterAll(() => ctx?.close());

describe("the delist feed over days (clock injected)", () => {
  it("day 1: flags blacklist reasons, dead and ghost listings; one history row per listing per day", async () => {
    expect(await cycle()).toEqual({ day: "2026-11-20", flagged: 5 });
    const firstRows = await ctx.db.db.selectFrom("flag_history").selectAll().orderBy("listing_id").execute();
    ctx.clock.advance(2 * MINUTE);
    expect(await cycle()).toEqual({ day: "2026-11-20", flagged: 5 });
    const again = await ctx.db.db.selectFrom("flag_history").selectAll().orderBy("listing_id").execute();
    expect(again).toHaveLength(5);
    expect(again.map((r) => r.recorded_at.getTime())).toEqual(firstRows.map((r) => r.recorded_at.getTime()));
    ctx.clock.set(D1);
    await recompute(ctx);

    const s = await snapshot();
    expect(s.mode).toBe("snapshot");
    expect(s.counts).toEqual({
      should_delist: 5,
      newly_flagged: 5,
      recovered: 0,
      ghost_listings: 1,
      by_reason: { decoy_price_extreme: 3, zombie: 1, dead_7d: 0, mostly_dead: 0, ghost_listing: 1 },
      by_added_reason: { dead: 1, pay_to_mismatch: 0, paid_no_delivery: 0 },
    });
    expect(entry(s, "decoy")).toEqual({
      url: "https://decoy.example/api",
      method: "POST",
      reasons: ["decoy_price_extreme"],
      first_flagged_at: "2026-11-20T12:00:00.000Z",
      confidence: "low",
      flagged_days_consecutive: 1,
      uptime_7d_pct: 100,
      // Seeded, not listed by CDP's own catalog (test/delist/delist-reasons.test.ts has one that is).
      cdp_listed: false,
      cdp_l30d_calls: 100,
      // No chain indexer in this file: the catalog's word alone.
      chain: null,
    });
    expect(entry(s, "ghost")).toMatchObject({ reasons: ["ghost_listing"], cdp_l30d_calls: 0 });
    // Its service has no other endpoint: every probe of the service in the hour failed.
    expect(entry(s, "deadnow")).toMatchObject({ reasons: ["dead", "zombie"], uptime_7d_pct: 0 });
    expect(entry(s, "toggler")!.cdp_l30d_calls).toBe(0);
    expect(entry(s, "healthy")).toBeUndefined();
  });

  it("filters by scope: critical without ghosts, ghost alone", async () => {
    const critical = await snapshot("critical");
    expect(critical.should_delist.map((e) => e.url)).not.toContain("https://ghost.example/api");
    expect(critical.counts).toMatchObject({
      should_delist: 4,
      ghost_listings: 0,
      by_reason: { decoy_price_extreme: 3, zombie: 1, dead_7d: 0, mostly_dead: 0 },
      by_added_reason: { dead: 1, pay_to_mismatch: 0, paid_no_delivery: 0 },
    });
    const ghost = await snapshot("ghost");
    expect(ghost.should_delist.map((e) => e.url)).toEqual(["https://ghost.example/api"]);
    expect(ghost.counts.by_reason).toEqual({ ghost_listing: 1 });
  });

  it("caps each list at limit and says so", async () => {
    const s = await snapshot("all", 2);
    expect(s.should_delist).toHaveLength(2);
    expect(s).toMatchObject({ truncated: true, limit: 2 });
    expect(s.counts.should_delist).toBe(5);
  });

  it("days 2 and 3: consecutive days count up and confidence turns high at 3; a recovered listing leaves should_delist", async () => {
    ctx.clock.set(new Date(D1.getTime() + DAY));
    expect((await cycle()).flagged).toBe(4);
    expect(entry(await snapshot(), "decoy")).toMatchObject({ flagged_days_consecutive: 2, confidence: "low" });

    ctx.clock.set(new Date(D1.getTime() + 2 * DAY));
    await setPrice("toggler", "0.01");
    await setPrice("lowup", "0.01");
    expect((await cycle()).flagged).toBe(2);
    const s = await snapshot();
    expect(entry(s, "decoy")).toMatchObject({ flagged_days_consecutive: 3, confidence: "high", first_flagged_at: "2026-11-20T12:00:00.000Z" });
    expect(entry(s, "ghost")).toMatchObject({ flagged_days_consecutive: 3, confidence: "high" });
    expect(s.counts).toMatchObject({ should_delist: 2, newly_flagged: 0, recovered: 1 });
    // lowup no longer has a reason either, but its 48 h uptime is below 95%.
    expect(s.recovered).toEqual([
      {
        url: "https://toggler.example/api",
        method: "POST",
        was_reasons: ["decoy_price_extreme"],
        flagged_until: "2026-11-22T00:00:00.000Z",
        uptime_48h_pct: 100,
      },
    ]);

    const diff = await delistDiff(ctx, { since: new Date(ctx.clock.now().getTime() - DAY), scope: "all", limit: 2000 });
    expect(diff).toMatchObject({ mode: "diff", window: { since: "2026-11-21T12:00:00.000Z", until: "2026-11-22T12:00:00.000Z" } });
    expect(diff.should_delist).toEqual([]);
    expect(diff.recovered.map((r) => r.url)).toEqual(["https://toggler.example/api"]);
    expect(diff.counts).toEqual({ should_delist: 0, newly_flagged: 0, recovered: 1, ghost_listings: 0 });
  });

  it("day 4: a listing flagged again starts a new streak; the diff lists it as newly flagged", async () => {
    ctx.clock.set(new Date(D1.getTime() + 3 * DAY));
    await setPrice("toggler", "2500");
    await cycle();
    const s = await snapshot();
    expect(entry(s, "toggler")).toMatchObject({ flagged_days_consecutive: 1, confidence: "low", first_flagged_at: "2026-11-23T12:00:00.000Z" });
    expect(entry(s, "decoy")!.flagged_days_consecutive).toBe(4);
    expect(s.counts.newly_flagged).toBe(1);

    const diff = await delistDiff(ctx, { since: new Date(ctx.clock.now().getTime() - DAY), scope: "all", limit: 2000 });
    expect(diff.should_delist).toEqual([
      { url: "https://toggler.example/api", method: "POST", reasons: ["decoy_price_extreme"], first_flagged_at: "2026-11-23T12:00:00.000Z", confidence: "low" },
    ]);
    expect(diff.recovered).toEqual([]);
    expect((await delistDiff(ctx, { since: ctx.clock.now(), scope: "all", limit: 2000 })).counts.should_delist).toBe(0);
    expect((await delistDiff(ctx, { since: new Date(ctx.clock.now().getTime() - DAY), scope: "ghost", limit: 2000 })).should_delist).toEqual([]);
  });

  it("keeps counting a streak when today's row is not recorded yet, and forgets listings that left the catalog", async () => {
    ctx.clock.set(new Date(D1.getTime() + 4 * DAY));
    await recompute(ctx);
    expect(entry(await snapshot(), "decoy")!.flagged_days_consecutive).toBe(5);
    await ctx.db.db.updateTable("listings").set({ is_active: false, deactivated_at: ctx.clock.now() }).where("id", "=", ids.decoy!).execute();
    await recompute(ctx);
    const s = await snapshot();
    expect(entry(s, "decoy")).toBeUndefined();
    expect(s.recovered.map((r) => r.url)).not.toContain("https://decoy.example/api");
  });
});
