import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOO_OLD_MESSAGE } from "../../src/http/routes/delist/delist-feed-diff.js";
import { recordDailyFlags } from "../../src/services/delist/record-flags.js";
import { DAY, HOUR, MINUTE } from "../../src/services/signals/constants.js";
import { recompute, seedListing, seedProbes, series } from "../helpers/catalog-fixtures.js";
import { body, refusedInput } from "../helpers/http.js";
import { postJson, startLookout, type LookoutService } from "../discovery/lookout-service.js";

let svc: LookoutService;
const CAP = { spendCapUsd: "$5" };
const paid = (path: string, payload: unknown, account = 0) => svc.payingFetch(account, CAP)(`${svc.url}${path}`, postJson(payload));
const unpaid = (path: string, payload: unknown) => fetch(`${svc.url}${path}`, postJson(payload));

beforeAll(async () => {
  svc = await startLookout();
  const ctx = svc.ctx;
  ctx.clock.set(new Date());
  const now = ctx.clock.now().getTime();
  const decoy = await seedListing(ctx, { url: "https://premium.example/alpha", service: "Premium", provider: "0xprem", price: "2500", l30dCalls: 3 });
  await seedProbes(ctx, decoy, series(7 * DAY, HOUR));
  const ghost = await seedListing(ctx, {
    url: "https://wx.example/history",
    service: "Skycast",
    provider: "0xsky",
    firstSeenAt: new Date(now - 40 * DAY),
    l30dCalls: 0,
    lastCalledAt: new Date(now - 52 * DAY),
  });
  await seedProbes(ctx, ghost, series(7 * DAY, HOUR));
  const gone = await seedListing(ctx, { url: "https://gone.example/geo", service: "Gone", provider: "0xgone" });
  await seedProbes(
    ctx,
    gone,
    series(7 * DAY, 10 * MINUTE, () => ({ healthy: false, status: null })),
  );
  await recompute(ctx);
  await recordDailyFlags(ctx);
});
afterAll(() => svc?.close());

describe("POST /api/v1/delist-feed", () => {
  it("sells the snapshot for 5 USDC to a client whose spend cap allows it", async () => {
    const payer = svc.payer(0);
    const before = await svc.balanceOf(payer);
    const res = await paid("/api/v1/delist-feed", { scope: "all" });
    expect(res.status).toBe(200);
    const b = await body(res);
    expect(before - (await svc.balanceOf(payer))).toBe(5_000_000n);
    expect(b.mode).toBe("snapshot");
    expect(b.should_delist.map((e: { url: string; reasons: string[] }) => [e.url, e.reasons])).toEqual([
      ["https://gone.example/geo", ["dead", "zombie", "dead_7d"]],
      ["https://premium.example/alpha", ["decoy_price_extreme"]],
      ["https://wx.example/history", ["ghost_listing"]],
    ]);
    expect(b.counts).toMatchObject({ should_delist: 3, ghost_listings: 1, by_reason: { ghost_listing: 1, dead_7d: 1, decoy_price_extreme: 1 } });
    expect(b.should_delist[1]).toMatchObject({ cdp_listed: false, cdp_l30d_calls: 3, flagged_days_consecutive: 1, confidence: "low", uptime_7d_pct: 100 });
    expect(b).not.toHaveProperty("attribution");
  });

  it("refuses a bad scope or limit with 400 before payment", async () => {
    for (const bad of [{ scope: "everything" }, { limit: 0 }, { limit: 10_001 }, { limit: 2.5 }]) {
      expect((await refusedInput(`${svc.url}/api/v1/delist-feed`, bad)).status, JSON.stringify(bad)).toBe(400);
    }
    const challenge = await unpaid("/api/v1/delist-feed", {});
    expect(challenge.status).toBe(402);
    expect((await body(challenge)).accepts[0].amount).toBe("5000000");
  });
});

describe("POST /api/v1/delist-feed-diff", () => {
  it("sells the changes since a moment for 1 USDC", async () => {
    const since = new Date(svc.ctx.clock.now().getTime() - HOUR).toISOString();
    const res = await paid("/api/v1/delist-feed-diff", { since, scope: "critical" }, 1);
    expect(res.status).toBe(200);
    const b = await body(res);
    expect(b).toMatchObject({ mode: "diff", scope: "critical", window: { since: new Date(since).toISOString(), until: svc.ctx.clock.now().toISOString() } });
    expect(b.should_delist.map((e: { url: string }) => e.url)).toEqual(["https://gone.example/geo", "https://premium.example/alpha"]);
    expect(b.counts).toEqual({ should_delist: 2, newly_flagged: 2, recovered: 0, ghost_listings: 0 });
  });

  it("tells a client whose since is older than 48 hours to take a full snapshot first, before payment", async () => {
    const old = new Date(svc.ctx.clock.now().getTime() - 48 * HOUR - MINUTE).toISOString();
    const res = await refusedInput(`${svc.url}/api/v1/delist-feed-diff`, { since: old });
    expect(res.status).toBe(400);
    expect((await body(res)).message).toBe(TOO_OLD_MESSAGE);
    const future = new Date(svc.ctx.clock.now().getTime() + HOUR).toISOString();
    expect((await refusedInput(`${svc.url}/api/v1/delist-feed-diff`, { since: future })).status).toBe(400);
    expect((await refusedInput(`${svc.url}/api/v1/delist-feed-diff`, { since: "yesterday" })).status).toBe(400);
    const edge = new Date(svc.ctx.clock.now().getTime() - 47 * HOUR).toISOString();
    expect((await unpaid("/api/v1/delist-feed-diff", { since: edge })).status).toBe(402);
  });
});
