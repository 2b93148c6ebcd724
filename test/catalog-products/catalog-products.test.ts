import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productRoutes } from "../../src/http/routes/index.js";
import { DAY, HOUR, MINUTE } from "../../src/services/signals/constants.js";
import { recompute, seedListing, seedProbes, series } from "../helpers/catalog-fixtures.js";
import { body, refusedInput } from "../helpers/http.js";
import { startPaidService, type PaidService } from "../helpers/paid-service.js";

let svc: PaidService;
const post = (payload: unknown) => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(payload) });
const paid = (path: string, payload: unknown, account = 0) => svc.payingFetch(account)(`${svc.url}${path}`, post(payload));
const unpaid = (path: string, payload: unknown) => fetch(`${svc.url}${path}`, post(payload));

const healthy = (latency = 100) => series(7 * DAY, HOUR, () => ({ latency }));
const last30m = (ok: boolean) => series(30 * MINUTE, 9 * MINUTE, () => ({ healthy: ok, status: ok ? 402 : 503 }));

beforeAll(async () => {
  svc = await startPaidService({ routes: productRoutes, env: { MAX_ENTRIES: "3" } });
  const ctx = svc.ctx;
  ctx.clock.set(new Date());
  const seed = async (s: Parameters<typeof seedListing>[1], probes: Parameters<typeof seedProbes>[2]) => {
    const id = await seedListing(ctx, s);
    await seedProbes(ctx, id, probes);
    return id;
  };
  // Weather: the blocked target and its siblings in every match tier.
  await seed({ url: "https://wx.example/v1/dead", service: "Skycast", provider: "0xsky", price: "0.002", category: "weather" }, last30m(false));
  await seed({ url: "https://wx.example/v1/forecast", service: "Skycast", provider: "0xsky", price: "0.002", category: "weather" }, healthy(300));
  await seed({ url: "https://wx.example/v1/hourly", service: "Skycast", provider: "0xsky", price: "0.002", category: "weather" }, healthy(100));
  await seed({ url: "https://other.example/radar", service: "Radar Co", provider: "0xsky", price: "0.005", category: "maps" }, healthy());
  await seed({ url: "https://wx.example/legacy", service: "Legacy Wx", provider: "0xold", price: "0.5", category: "maps" }, healthy());
  await seed({ url: "https://storm.example/alerts", service: "Storm", provider: "0xstorm", price: "0.5", category: "weather" }, healthy());
  await seed({ url: "https://cheap.example/x", service: "Cheap", provider: "0xcheap", price: "0.004", category: "data" }, healthy());
  // Excluded candidates: erroring now, dead for a week, a decoy, never probed.
  await seed({ url: "https://storm.example/flaky", service: "Storm", provider: "0xstorm", price: "0.5", category: "weather" }, last30m(false));
  await seed(
    { url: "https://gone.example/w", service: "Gone", provider: "0xgone", price: "0.002", category: "weather" },
    series(7 * DAY, 6 * HOUR, () => ({ healthy: false, status: 500 })),
  );
  await seed({ url: "https://premium.example/alpha", service: "Premium", provider: "0xprem", price: "2500", category: "weather" }, healthy());
  await seed({ url: "https://new.example/w", service: "New", provider: "0xnew", price: "0.002", category: "weather" }, []);
  // Healthy, but their own verdict is not pay: a 49 USDC price (skip), an SPA shell's host, a ghost nobody called in 52 days.
  await seed({ url: "https://pricey.example/forecast", service: "Pricey", provider: "0xpricey", price: "49", category: "weather" }, healthy());
  await seed({ url: "https://shell.example/app", service: "Shell", provider: "0xshell", price: "0.002", category: "weather" }, healthy());
  const longAgo = new Date(ctx.clock.now().getTime() - 52 * DAY);
  await seed(
    {
      url: "https://ghost.example/w",
      service: "Ghost",
      provider: "0xghost",
      price: "0.002",
      category: "weather",
      firstSeenAt: longAgo,
      l30dCalls: 0,
      lastCalledAt: longAgo,
    },
    healthy(),
  );
  // No category and no tags: nothing says what it does, so a price alone matches nothing (decision 0039).
  const uncategorized = await seed({ url: "https://nocat.example/q", service: "NoCat", provider: "0xnocat", price: "0.003" }, healthy());
  await ctx.db.db.updateTable("listings").set({ category: null }).where("id", "=", uncategorized).execute();
  // Zombie service: every endpoint erroring.
  await seed(
    { url: "https://zombie.example/a", service: "Zombie", provider: "0xz", price: "0.01", category: "data" },
    series(HOUR, 20 * MINUTE, () => ({ healthy: false, status: 500 })),
  );
  await seed(
    { url: "https://zombie.example/b", service: "Zombie", provider: "0xz", price: "0.01", category: "data" },
    series(HOUR, 20 * MINUTE, () => ({ healthy: false, status: 502 })),
  );
  // A wildcard host: 5 listed paths, 2 real resources.
  for (const p of ["a", "b", "c", "d", "e"])
    await seed({ url: `https://wild.example/${p}`, service: "Wild", provider: "0xwild", price: "0.01", category: "data" }, healthy());
  await ctx.db.db
    .insertInto("host_checks")
    .values({
      host: "wild.example",
      wildcard_402_detected: true,
      wildcard_402_checked_at: ctx.clock.now(),
      spa_fallback_checked_at: ctx.clock.now(),
      effective_count: 2,
      effective_count_basis: "sitemap_url_count",
    })
    .execute();
  await ctx.db.db
    .insertInto("host_checks")
    .values({ host: "shell.example", spa_fallback_detected: true, spa_fallback_checked_at: ctx.clock.now(), wildcard_402_checked_at: ctx.clock.now() })
    .execute();
  // Delisted in the window, and listed long ago.
  await seedListing(ctx, { url: "https://old.example/removed", service: "Old", price: "0.01", active: false });
  await recompute(ctx);
});
afterAll(() => svc?.close());

describe("catalog/decoys", () => {
  it("lists every blacklisted listing, most severe first, capped with truncated", async () => {
    const res = await paid("/api/v1/catalog/decoys", {});
    expect(res.status).toBe(200);
    const b = await body(res);
    expect(b.counts.by_reason).toEqual({ decoy_price_extreme: 1, zombie: 2, dead_7d: 1, mostly_dead: 0 });
    expect(b.counts.total).toBe(4);
    expect(b.truncated).toBe(true);
    expect(b.entries.map((e: { url: string }) => e.url)).toEqual(["https://premium.example/alpha", "https://zombie.example/a", "https://zombie.example/b"]);
    expect(b.entries[0]).toMatchObject({
      service_name: "Premium",
      price_usdc: "2500",
      currency: "USDC",
      reasons: ["decoy_price_extreme"],
      uptime_7d_pct: 100,
      wildcard_402_detected: false,
    });
    expect(b.wildcard_402_hosts).toEqual([expect.objectContaining({ service_id: "wild", raw_count: 5, effective_count: 2, synthetic_count: 3 })]);
    expect(b.counts).toMatchObject({ wildcard_402_services: 1, spa_fallback_services: 1 });
  });

  it("answers the same bytes twice apart from generated_at", async () => {
    const a = await body(await paid("/api/v1/catalog/decoys", {}, 1));
    const b = await body(await paid("/api/v1/catalog/decoys", {}, 1));
    expect({ ...a, generated_at: "" }).toEqual({ ...b, generated_at: "" });
  });
});

describe("alternatives", () => {
  it("ranks healthy siblings by match priority, then uptime and latency", async () => {
    const res = await paid("/api/v1/alternatives", { url: "https://wx.example/v1/dead", limit: 10 });
    expect(res.status).toBe(200);
    const b = await body(res);
    expect(b.match_strategy).toBe("url_target");
    expect(b.target).toEqual({
      url: "https://wx.example/v1/dead",
      known: true,
      service: "Skycast",
      service_id: "skycast",
      provider: "Skycast",
      domain: "wx.example",
      category: "weather",
      price_usdc: "0.002",
      currency: "USDC",
    });
    expect(b.alternatives[0]).toEqual({
      url: "https://wx.example/v1/hourly",
      service_id: "skycast",
      service: "Skycast",
      provider: "Skycast",
      domain: "wx.example",
      category: "weather",
      price_usdc: "0.002",
      currency: "USDC",
      uptime_1h_pct: 100,
      uptime_7d_pct: 100,
      avg_latency_1h_ms: expect.any(Number),
      match_reason: "same_service",
      score: expect.any(Number),
    });
    // Each item's score is its tier's 1000s plus uptime x 5 less latency / 100, and the items are in its order.
    for (const a of b.alternatives) {
      const tier = ["same_service", "same_provider", "same_domain", "same_category", "similar_price"].indexOf(a.match_reason);
      expect(a.score).toBeCloseTo((5 - tier) * 1000 + a.uptime_7d_pct * 5 - Math.min(a.avg_latency_1h_ms, 10_000) / 100, 1);
    }
    const scores = b.alternatives.map((a: { score: number }) => a.score);
    expect(scores).toEqual([...scores].sort((x: number, y: number) => y - x));
    expect(b.alternatives.map((a: { url: string; match_reason: string }) => [a.url, a.match_reason])).toEqual([
      ["https://wx.example/v1/hourly", "same_service"],
      ["https://wx.example/v1/forecast", "same_service"],
      ["https://other.example/radar", "same_provider"],
      ["https://wx.example/legacy", "same_domain"],
      ["https://storm.example/alerts", "same_category"],
    ]);
    expect(b.candidate_count).toBe(5);
  });

  it("applies the limit after counting candidates", async () => {
    const b = await body(await paid("/api/v1/alternatives", { url: "https://wx.example/v1/dead", limit: 2 }));
    expect(b.alternatives).toHaveLength(2);
    expect(b.candidate_count).toBe(5);
  });

  it("offers only candidates whose own verdict is pay: for the 2,500 USDC decoy, no wallet-drain price, SPA shell or ghost", async () => {
    const b = await body(await paid("/api/v1/alternatives", { url: "https://premium.example/alpha", limit: 10 }));
    const urls: string[] = b.alternatives.map((a: { url: string }) => a.url);
    expect([...urls].sort()).toEqual(["https://storm.example/alerts", "https://wx.example/v1/forecast", "https://wx.example/v1/hourly"]);
    expect(b.candidate_count).toBe(3);
    // What was left out is what preflight itself warns against, and what was offered preflight and forensics rate pay.
    const { reports } = svc.ctx.services;
    expect((await reports.preflight("https://pricey.example/forecast")).recommended_action).toBe("skip");
    expect((await reports.preflight("https://shell.example/app")).warnings).toContain("spa_fallback");
    const ghost = await svc.ctx.db.db
      .selectFrom("signal_snapshots as s")
      .innerJoin("listings as l", "l.id", "s.listing_id")
      .select("s.delist_reasons")
      .where("l.url", "=", "https://ghost.example/w")
      .executeTakeFirstOrThrow();
    expect(ghost.delist_reasons).toEqual(["ghost_listing"]);
    for (const url of urls) {
      expect((await reports.preflight(url)).recommended_action, url).toBe("pay");
      expect((await reports.forensics(url)).recommended_action, url).toBe("pay");
    }
  });

  it("never offers a listing of a wildcard-402 host", async () => {
    const b = await body(await paid("/api/v1/alternatives", { taskClass: "data" }));
    expect(b.alternatives.map((a: { url: string }) => a.url)).toEqual(["https://cheap.example/x"]);
    expect(b.candidate_count).toBe(1);
  });

  it("never matches on price alone: not across categories, and not for a target without a category or tags", async () => {
    const weather = await body(await paid("/api/v1/alternatives", { url: "https://wx.example/v1/dead", limit: 10 }));
    expect(weather.alternatives.map((a: { url: string }) => a.url)).not.toContain("https://cheap.example/x");
    // Four healthy candidates within a factor of 3 of its price: none is offered on price alone.
    const res = await paid("/api/v1/alternatives", { url: "https://nocat.example/q", limit: 10 });
    expect(res.status).toBe(404);
    expect(await body(res)).toMatchObject({ error: "no_alternatives", payment_settled: false });
  });

  it("matches a task class against categories and tags, case-insensitive", async () => {
    const b = await body(await paid("/api/v1/alternatives", { taskClass: "WEATHER" }));
    expect(b.match_strategy).toBe("task_class_only");
    expect(b.target).toEqual({ task_class: "WEATHER" });
    expect(b.alternatives.every((a: { match_reason: string }) => a.match_reason === "same_category")).toBe(true);
    expect(b.alternatives.map((a: { url: string }) => a.url)).not.toContain("https://premium.example/alpha");
  });

  it("falls back to the task class for an unknown URL", async () => {
    const b = await body(await paid("/api/v1/alternatives", { url: "https://unlisted.example/w", taskClass: "weather" }));
    expect(b.match_strategy).toBe("url_target_unknown_fallback");
    expect(b.target).toEqual({ url: "https://unlisted.example/w", known: false });
    expect(b.alternatives.length).toBeGreaterThan(0);
  });

  it("answers 404 when nothing qualifies, and 400 for bad input before payment", async () => {
    const none = await paid("/api/v1/alternatives", { taskClass: "astrology" });
    expect(none.status).toBe(404);
    expect((await body(none)).payment_settled).toBe(false);
    for (const bad of [
      {},
      { taskClass: "  " },
      { taskClass: "x".repeat(81) },
      { url: "https://a.example", limit: 11 },
      { url: `https://a.example/${"x".repeat(2050)}` },
      { url: "ftp://a" },
    ]) {
      expect((await refusedInput(`${svc.url}/api/v1/alternatives`, bad)).status).toBe(400);
    }
  });
});

describe("whats-new", () => {
  it("reports added and removed listings with the poll summary", async () => {
    const since = new Date(svc.ctx.clock.now().getTime() - 3600_000).toISOString();
    await svc.ctx.db.db
      .insertInto("catalog_sources")
      .values({ url: "http://catalog.test/discovery/resources" })
      .onConflict((oc) => oc.doNothing())
      .execute();
    await svc.ctx.db.db
      .insertInto("catalog_polls")
      .values({ source_url: "http://catalog.test/discovery/resources", started_at: svc.ctx.clock.now(), complete: true })
      .execute();
    await svc.ctx.db.db.updateTable("listings").set({ first_seen_at: svc.ctx.clock.now() }).where("url", "=", "https://new.example/w").execute();
    const b = await body(await paid("/api/v1/whats-new", { since, limit: 1 }));
    expect(b.added_endpoints).toEqual([expect.objectContaining({ url: "https://new.example/w", service_name: "New", price_usdc: "0.002" })]);
    expect(b.removed_endpoints).toEqual([expect.objectContaining({ url: "https://old.example/removed", last_seen_at: expect.any(String) })]);
    expect(b.summary).toMatchObject({ added_endpoints_count: 1, removed_endpoints_count: 1, polls_in_window: 1, removed_services_count: 1 });
    expect(b.summary.current_active_endpoints).toBeGreaterThan(10);
    expect(b).toMatchObject({ truncated: false, limit: 1, window_hours: 1 });
  });

  it("refuses a since older than 30 days or in the future, before payment", async () => {
    const now = svc.ctx.clock.now().getTime();
    expect((await refusedInput(`${svc.url}/api/v1/whats-new`, { since: new Date(now - 31 * DAY).toISOString() })).status).toBe(400);
    expect((await refusedInput(`${svc.url}/api/v1/whats-new`, { since: new Date(now + 5 * MINUTE).toISOString() })).status).toBe(400);
    expect((await refusedInput(`${svc.url}/api/v1/whats-new`, { limit: 501 })).status).toBe(400);
    // No clock-skew tolerance: one second ahead is in the future; now itself is an empty window.
    const ahead = await refusedInput(`${svc.url}/api/v1/whats-new`, { since: new Date(now + 1000).toISOString() });
    expect(ahead.status).toBe(400);
    expect((await body(ahead)).message).toMatch(/^since: must not be in the future/);
    expect((await unpaid("/api/v1/whats-new", { since: new Date(now).toISOString() })).status).toBe(402);
  });

  it("answers a since of now with an empty window, never a negative one", async () => {
    const since = svc.ctx.clock.now().toISOString();
    const b = await body(await paid("/api/v1/whats-new", { since }));
    expect(b).toMatchObject({ since, until: since, window_hours: 0 });
    // A clock stepped back after the route's check: the service clamps the window at now.
    const now = svc.ctx.clock.now();
    const late = await svc.ctx.services.whatsNew.changes(new Date(now.getTime() + 60_000), 10, now);
    expect(late).toMatchObject({ since: now.toISOString(), until: now.toISOString(), window_hours: 0 });
  });
});
