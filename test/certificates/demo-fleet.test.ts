import { createRemoteJWKSet, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { body } from "../helpers/http.js";
import { startDemoScenario, type DemoScenario } from "../discovery/demo-scenario.js";
import { postJson } from "../discovery/lookout-service.js";

let demo: DemoScenario;
const CAP = { spendCapUsd: "$5" };

beforeAll(async () => {
  demo = await startDemoScenario();
}, 60_000);
afterAll(() => demo?.stop());

describe("acceptance against the demo fleet", () => {
  it("a healthy demo provider with a week of imported history gets a certificate whose JWS verifies", async () => {
    const { svc, healthy } = demo;
    const res = await svc.payingFetch(0, CAP)(`${svc.url}/api/v1/verified`, postJson({ url: healthy.url, name: healthy.serviceName }));
    const b = await body(res);
    expect(res.status, JSON.stringify(b.failed_criteria ?? b)).toBe(200);
    expect(b).toMatchObject({ verified: true, tier: "verified", url: healthy.url, listings_covered: 1 });
    const { payload } = await jwtVerify(b.jws, createRemoteJWKSet(new URL(b.jwksUrl)), { issuer: svc.url, currentDate: svc.ctx.clock.now() });
    expect(payload).toMatchObject({ certId: b.certId, url: healthy.url, tier: "verified" });
    const badge = await fetch(b.badgeUrl);
    expect(badge.status).toBe(200);
    expect(await badge.text()).toContain("x402 verified");
  });

  it("a demo endpoint without a week of history is refused with 422 and is not charged", async () => {
    const { svc, fleet } = demo;
    const fresh = fleet.endpoints.find((e) => e.kind === "healthy" && e.url.endsWith("/weather/forecast"))!;
    const before = await svc.balanceOf(svc.payer(1));
    const res = await svc.payingFetch(1, CAP)(`${svc.url}/api/v1/verified`, postJson({ url: fresh.url, name: "Skycast forecast" }));
    expect(res.status).toBe(422);
    expect((await body(res)).failed_criteria.map((c: { id: string }) => c.id)).toContain("probes_7d");
    expect(await svc.balanceOf(svc.payer(1))).toBe(before);
  });

  it("the demo's ghost, healthy for a week but called last 52 days ago, is refused on its verdict alone and not charged", async () => {
    const { svc, fleet } = demo;
    const ghost = fleet.endpoints.find((e) => e.kind === "ghost")!;
    const before = await svc.balanceOf(svc.payer(3));
    const res = await svc.payingFetch(3, CAP)(`${svc.url}/api/v1/verified`, postJson({ url: ghost.url, name: ghost.serviceName }));
    expect(res.status).toBe(422);
    const failed = (await body(res)).failed_criteria;
    expect(failed.map((c: { id: string }) => c.id)).toEqual(["clean_verdict"]);
    expect(failed[0].observed).toBe("ghost_listing");
    expect(await svc.balanceOf(svc.payer(3))).toBe(before);
  });

  it("alternatives for the 2,500 USDC decoy offer only endpoints preflight rates pay (not the 49 USDC one)", async () => {
    const { svc, fleet } = demo;
    const decoy = fleet.endpoints.find((e) => e.kind === "decoy")!;
    const whale = fleet.endpoints.find((e) => e.kind === "suspicious_price")!;
    const offered = (await svc.ctx.services.alternatives.find({ url: decoy.url, limit: 10 })).alternatives.map((a) => a.url);
    expect(offered.length).toBeGreaterThan(0);
    expect(offered).not.toContain(whale.url);
    for (const url of offered) expect((await svc.ctx.services.reports.preflight(url)).recommended_action, url).toBe("pay");
  });

  it("the demo's ghost and dead listings appear in the delist feed with the right reasons", async () => {
    const { svc, fleet } = demo;
    const res = await svc.payingFetch(2, CAP)(`${svc.url}/api/v1/delist-feed`, postJson({ scope: "all" }));
    expect(res.status).toBe(200);
    const feed = await body(res);
    const byUrl = new Map<string, { reasons: string[] }>(feed.should_delist.map((e: { url: string; reasons: string[] }) => [e.url, e]));
    const missing: string[] = [];
    for (const e of fleet.endpoints.filter((x) => ["dead_5xx", "dead_refused", "zombie", "ghost", "never_paid", "decoy"].includes(x.kind))) {
      const got = byUrl.get(e.url)?.reasons ?? [];
      if (!e.expected.delistReasons.every((r) => got.includes(r))) missing.push(`${e.kind} ${e.url}: want ${e.expected.delistReasons} got ${got}`);
    }
    expect(missing).toEqual([]);
    for (const e of fleet.endpoints.filter((x) => x.kind === "dead_5xx" || x.kind === "dead_refused"))
      expect(byUrl.get(e.url)!.reasons).toEqual(["dead", "dead_7d"]);
    for (const e of fleet.endpoints.filter((x) => x.kind === "ghost" || x.kind === "never_paid")) expect(byUrl.get(e.url)!.reasons).toEqual(["ghost_listing"]);
    for (const e of fleet.endpoints.filter((x) => x.kind === "healthy")) expect(byUrl.has(e.url), e.url).toBe(false);
    // Oracle Pulse's synthetic SOL-USD/1m path is healthy and unpaid for 40 days: a ghost too.
    expect(feed.counts.ghost_listings).toBe(feed.counts.by_reason.ghost_listing);
    expect(feed.counts.ghost_listings).toBeGreaterThanOrEqual(2);
  });
});
