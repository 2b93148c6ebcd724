import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExplorerRow, ListQuery } from "../../src/services/index.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { seedListCatalog, type ListCatalog } from "./list-catalog.js";

let ctx: TestContext;
let cat: ListCatalog;
const list = (q: Partial<ListQuery> = {}) => ctx.services.explorer.list({ sort: "listed", dir: "asc", page: 1, ...q });
const ids = async (q: Partial<ListQuery>) => (await list(q)).rows.map((r) => r.id);

beforeAll(async () => {
  ctx = await createTestContext();
  cat = await seedListCatalog(ctx);
  // Two listings the chain shows paid (decision 0052); every other one is not indexed.
  const paid = (id: number, calls: number, volume: string) =>
    ctx.db.db
      .updateTable("signal_snapshots")
      .set({ settlements: { calls_30d: calls, volume_usdc_30d: volume } })
      .where("listing_id", "=", id)
      .execute();
  await paid(cat.forecast, 12, "0.024");
  await paid(cat.hourly, 3, "0.006");
});
afterAll(() => ctx.close());

describe("the explorer list", () => {
  it("lists every active listing, 50 a page, with the total", async () => {
    const first = await list();
    expect(first.total).toBe(67);
    expect(first.rows).toHaveLength(50);
    expect(first.pages).toBe(2);
    const second = await list({ page: 2 });
    expect(second.rows.map((r) => r.id)).toEqual([...first.rows, ...second.rows].map((r) => r.id).slice(50));
    expect(new Set([...first.rows, ...second.rows].map((r) => r.id)).size).toBe(67);
    expect([...first.rows, ...second.rows].map((r) => r.id)).not.toContain(cat.inactive);
    expect((await list({ page: 3 })).rows).toEqual([]);
  });

  it("searches URL, service and provider names, case-insensitively, with no pattern characters", async () => {
    expect(await ids({ q: "WX.EXAMPLE/V1" })).toEqual([cat.forecast, cat.hourly]);
    expect(await ids({ q: "goldmine" })).toEqual([cat.decoy]);
    expect(await ids({ q: "acme pay" })).toEqual([cat.acme]);
    expect(await ids({ q: "%" })).toEqual([cat.odd]);
    expect(await ids({ q: "_" })).toEqual([cat.odd]);
    expect((await list({ q: "nothing-like-this" })).total).toBe(0);
  });

  it("narrows by verdict, warning, category, network and price range", async () => {
    expect(await ids({ verdict: "skip" })).toEqual([cat.decoy]);
    expect(await ids({ verdict: "investigate", q: "wx.example" })).toEqual([cat.dead]);
    expect((await list({ verdict: "investigate" })).total).toBe(61); // the dead one and 60 never probed
    expect(await ids({ warning: "decoy_price_extreme" })).toEqual([cat.decoy]);
    expect(await ids({ warning: "dead" })).toEqual([cat.dead]);
    expect(await ids({ category: "Weather" })).toEqual([cat.forecast, cat.hourly, cat.dead]);
    expect(await ids({ network: "eip155:8453" })).toEqual([cat.acme]);
    expect(await ids({ minPrice: "1" })).toEqual([cat.decoy]);
    expect(await ids({ minPrice: "0.002", maxPrice: "0.004", category: "weather" })).toEqual([cat.forecast, cat.hourly]);
    expect((await list({ verdict: "pay" })).rows.every((r) => r.action === "pay" && r.ok === true)).toBe(true);
  });

  it("sorts by uptime, latency and price, missing figures last, ties by id", async () => {
    const sorted = async (sort: ListQuery["sort"], dir: "asc" | "desc", pick: (r: ExplorerRow) => number | null) => {
      const rows = [...(await list({ sort, dir })).rows, ...(await list({ sort, dir, page: 2 })).rows];
      const values = rows.map(pick);
      const known = values.filter((v): v is number => v !== null);
      expect(values.slice(0, known.length)).toEqual(known); // nulls last
      expect(known).toEqual([...known].sort((a, b) => (dir === "asc" ? a - b : b - a)));
      const tied = rows.filter((r) => pick(r) === known[0]).map((r) => r.id);
      expect(tied).toEqual([...tied].sort((a, b) => a - b));
      return rows;
    };
    expect((await sorted("uptime", "desc", (r) => r.uptime7dPct)).at(-1)!.uptime7dPct).toBeNull();
    expect((await sorted("uptime", "asc", (r) => r.uptime7dPct))[0]!.id).toBe(cat.dead);
    expect((await sorted("latency", "asc", (r) => r.p50LatencyMs))[0]!.id).toBe(cat.acme);
    expect((await sorted("price", "desc", (r) => (r.priceUsdc === null ? null : Number(r.priceUsdc))))[0]!.id).toBe(cat.decoy);
    await sorted("latency_avg", "desc", (r) => r.avgLatencyMs);
    const byVolume = await sorted("volume", "desc", (r) => r.volumeUsdc30d);
    expect(byVolume.slice(0, 2).map((r) => [r.id, r.settledCalls30d])).toEqual([
      [cat.forecast, 12],
      [cat.hourly, 3],
    ]);
  });

  it("draws each sparkline from the listing's own days", async () => {
    const rows = (await list({ q: "wx.example" })).rows;
    const dead = rows.find((r) => r.id === cat.dead)!.sparkline;
    expect(dead).toHaveLength(7);
    expect(dead.slice(0, 3)).toEqual([100, 100, 100]);
    expect(dead.slice(4)).toEqual([0, 0, 0]);
    expect(rows.find((r) => r.id === cat.forecast)!.sparkline).toEqual([100, 100, 100, 100, 100, 100, 100]);
    expect((await list({ q: "filler.example/e/1" })).rows[0]!.sparkline).toEqual(Array(7).fill(null));
  });

  it("gives provider and service pages their endpoints and totals", async () => {
    const sky = await ctx.services.explorer.provider("0xsky", { sort: "listed", dir: "asc", page: 1 });
    expect(sky!.list.rows.map((r) => r.id)).toEqual([cat.forecast, cat.hourly, cat.dead]);
    expect(sky!.totals).toMatchObject({ endpoints: 3, flagged: 1, flaggedBy: { dead: 1 } });
    const uptimes = sky!.list.rows.map((r) => r.uptime7dPct!);
    expect(sky!.totals.avgUptime7dPct).toBeCloseTo(uptimes.reduce((a, b) => a + b) / 3, 0);
    expect(sky!.totals.avgUptime7dPct!).toBeLessThan(100);
    const service = await ctx.services.explorer.service("goldmine", { sort: "listed", dir: "asc", page: 1 });
    expect(service!.totals).toMatchObject({ endpoints: 1, flagged: 1, flaggedBy: { decoy_price_extreme: 1 } });
    expect(await ctx.services.explorer.provider("0xnobody", { sort: "listed", dir: "asc", page: 1 })).toBeNull();
  });
});
