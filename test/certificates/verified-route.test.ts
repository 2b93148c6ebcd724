import { createRemoteJWKSet, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DAY, HOUR, MINUTE } from "../../src/services/signals/constants.js";
import { recompute, seedListing, seedProbes, series } from "../helpers/catalog-fixtures.js";
import { body, refusedInput } from "../helpers/http.js";
import { postJson, startLookout, type LookoutService } from "../discovery/lookout-service.js";

let svc: LookoutService;
const CAP = { spendCapUsd: "$5" };
const NAME = `Skycast <b>"Weather"</b> & 'Co'`;
const verify = (payload: unknown, account = 0) => svc.payingFetch(account, CAP)(`${svc.url}/api/v1/verified`, postJson(payload));
const week = () => series(7 * DAY, HOUR, () => ({ price: "0.002", latency: 150 }));

beforeAll(async () => {
  svc = await startLookout();
  const ctx = svc.ctx;
  // Payments are signed in real time; the business clock follows it here.
  ctx.clock.set(new Date());
  for (const path of ["/v1/forecast", "/v1/hourly"]) {
    const id = await seedListing(ctx, { url: `https://wx.example${path}`, service: "Skycast", provider: "0xsky", price: "0.002" });
    await seedProbes(ctx, id, week());
  }
  const dead = await seedListing(ctx, { url: "https://wx.example/v2/broken", service: "Skycast", provider: "0xsky", price: "0.002" });
  await seedProbes(
    ctx,
    dead,
    series(7 * DAY, HOUR, () => ({ healthy: false, status: 500 })),
  );
  await recompute(ctx);
});
afterAll(() => svc?.close());

describe("POST /api/v1/verified", () => {
  it("sells a certificate for 1 USDC through the real x402 client; its JWS verifies against /.well-known/jwks.json", async () => {
    const payer = svc.payer(0);
    const before = await svc.balanceOf(payer);
    const res = await verify({ url: "https://wx.example/v1/*", name: NAME });
    expect(res.status).toBe(200);
    expect(res.headers.get("payment-response")).toBeTruthy();
    const b = await body(res);
    expect(b).toMatchObject({ verified: true, tier: "verified", url: "https://wx.example/v1/*", name: NAME, listings_covered: 2 });
    expect(b.attribution.product).toBe("Verified by x402 Lookout");
    expect(Date.parse(b.validUntil) - Date.parse(b.issuedAt)).toBe(30 * DAY);
    expect(before - (await svc.balanceOf(payer))).toBe(1_000_000n);

    const jwks = createRemoteJWKSet(new URL(`${svc.url}/.well-known/jwks.json`));
    const { payload } = await jwtVerify(b.jws, jwks, { issuer: svc.url, currentDate: svc.ctx.clock.now() });
    expect(payload).toMatchObject({ certId: b.certId, tier: "verified", name: NAME });

    const status = await body(await fetch(`${svc.url}/api/v1/verified/${b.certId}`));
    expect(status).toMatchObject({ certId: b.certId, state: "verified", lapsed_because: [], jws: b.jws });
  });

  it("answers 422 not_verified with the failed criteria, and settles nothing", async () => {
    const payer = svc.payer(1);
    const before = await svc.balanceOf(payer);
    const res = await verify({ url: "https://wx.example/*", name: "Skycast all" }, 1);
    expect(res.status).toBe(422);
    const b = await body(res);
    expect(b).toMatchObject({ error: "not_verified", tier: "not_verified", verified: false, payment_settled: false, url: "https://wx.example/*" });
    expect(b.failed_criteria.map((c: { id: string }) => c.id)).toEqual(["uptime_7d", "no_critical_warning", "clean_verdict", "x402_v2_challenge"]);
    expect(b.failed_criteria[0].failing).toEqual([{ url: "https://wx.example/v2/broken", method: "POST", observed: 0 }]);
    expect(b.criteria).toHaveLength(8);
    expect(await svc.balanceOf(payer)).toBe(before);
  });

  it("refuses a bad pattern or name with 400 before asking for payment", async () => {
    for (const bad of [
      { url: "https://*.example.com/", name: "x" },
      { url: "https://wx.example/v1?q=*", name: "x" },
      { url: "https://wx.example/v1/*", name: "" },
      { url: "https://wx.example/v1/*", name: "x".repeat(81) },
      { url: "https://wx.example/v1/*", name: "line\nbreak" },
      { url: "https://wx.example/v1/*" },
    ]) {
      const res = await refusedInput(`${svc.url}/api/v1/verified`, bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    const unpaid = await fetch(`${svc.url}/api/v1/verified`, postJson({ url: "https://wx.example/v1/*", name: "ok" }));
    expect(unpaid.status).toBe(402);
    expect((await body(unpaid)).accepts[0].amount).toBe("1000000");
  });
});

describe("badge and page", () => {
  it("show the live state, escape the name, and turn lapsed when an endpoint stops meeting the criteria", async () => {
    const b = await body(await verify({ url: "https://wx.example/v1/forecast", name: NAME }, 2));
    const badge = await fetch(b.badgeUrl);
    expect(badge.status).toBe(200);
    expect(badge.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    const svg = await badge.text();
    expect(svg).toContain("x402 verified");
    expect(svg).toContain("Skycast &lt;b&gt;&quot;Weather&quot;&lt;/b&gt; &amp; &#39;Co&#39;");
    expect(svg).not.toContain("<b>");

    const page = await fetch(b.pageUrl);
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain("Verified.");
    expect(text).not.toContain('<b>"Weather"</b>');
    expect(text).toContain("https://wx.example/v1/forecast");
    expect(text).toContain(b.jws);

    const listing = await svc.ctx.db.db.selectFrom("listings").select("id").where("url", "=", "https://wx.example/v1/forecast").executeTakeFirstOrThrow();
    // Half an hour later, every probe of the last 30 minutes failed: the endpoint is dead.
    svc.ctx.clock.advance(30 * MINUTE);
    await seedProbes(
      svc.ctx,
      Number(listing.id),
      series(30 * MINUTE, 9 * MINUTE, () => ({ healthy: false, status: 503 })),
    );
    await recompute(svc.ctx);
    const lapsed = await (await fetch(b.badgeUrl)).text();
    expect(lapsed).toContain("x402 lapsed");
    expect(lapsed).toMatch(/certificate lapsed \(no_critical_warning no longer met/);
    expect(await (await fetch(b.pageUrl)).text()).toContain("Lapsed.");
    expect((await body(await fetch(`${svc.url}/api/v1/verified/${b.certId}`))).state).toBe("lapsed");
  });

  it("answers 404 for an unknown certificate", async () => {
    expect((await fetch(`${svc.url}/verified/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    expect((await fetch(`${svc.url}/verified/nope/badge.svg`)).status).toBe(404);
    expect((await fetch(`${svc.url}/api/v1/verified/nope`)).status).toBe(404);
  });
});
