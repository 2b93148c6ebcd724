import { createRemoteJWKSet, jwtVerify } from "jose";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { certificateProofMessage } from "@x402-lookout/contracts/verified/proof";
import { body } from "../helpers/http.js";
import { x402PayingFetch } from "../helpers/x402-payer.js";
import { startDemoScenario, type DemoScenario } from "../discovery/demo-scenario.js";
import { postJson } from "../discovery/lookout-service.js";

let demo: DemoScenario;
const CAP = { spendCapUsd: "$5" };
/** Skycast Labs' payTo, the devnet's funded demo merchant, paying for its own certificate. */
const merchantFetch = () => x402PayingFetch(demo.svc.devnet.demoMerchant.privateKey, CAP);
const verifiedUrl = () => `${demo.svc.url}/api/v1/verified`;

beforeAll(async () => {
  demo = await startDemoScenario();
}, 60_000);
afterAll(() => demo?.stop());

describe("acceptance against the demo fleet", () => {
  it("a healthy demo provider with a week of imported history, paying from its payTo, gets a certificate whose JWS verifies", async () => {
    const { svc, healthy } = demo;
    expect(healthy.payTo).toBe(svc.devnet.demoMerchant.address);
    const res = await merchantFetch()(verifiedUrl(), postJson({ url: healthy.url }));
    const b = await body(res);
    expect(res.status, JSON.stringify(b.failed_criteria ?? b)).toBe(200);
    const host = new URL(healthy.url).host;
    // Without a name, the certificate carries the catalog's service name.
    expect(b).toMatchObject({ verified: true, tier: "verified", url: healthy.url, name: healthy.serviceName, listings_covered: 1 });
    expect(b).toMatchObject({ payTo: healthy.payTo, host, provenBy: "payment" });
    const { payload } = await jwtVerify(b.jws, createRemoteJWKSet(new URL(b.jwksUrl)), { issuer: svc.url, currentDate: svc.ctx.clock.now() });
    expect(payload).toMatchObject({ certId: b.certId, url: healthy.url, tier: "verified", payTo: healthy.payTo, host });
    const badge = await fetch(b.badgeUrl);
    expect(badge.status).toBe(200);
    expect(await badge.text()).toContain("x402 verified");
  });

  it("a demo endpoint without a week of history is refused with 422 and is not charged", async () => {
    const { svc, fleet } = demo;
    const fresh = fleet.endpoints.find((e) => e.kind === "healthy" && e.url.endsWith("/weather/forecast"))!;
    const before = await svc.balanceOf(svc.devnet.demoMerchant.address);
    const res = await merchantFetch()(verifiedUrl(), postJson({ url: fresh.url, name: "Skycast forecast" }));
    expect(res.status).toBe(422);
    expect((await body(res)).failed_criteria.map((c: { id: string }) => c.id)).toContain("probes_7d");
    expect(await svc.balanceOf(svc.devnet.demoMerchant.address)).toBe(before);
  });

  it("another provider's demo endpoint is refused with 422 payto_not_proven, and the marketplace origin with payto_ambiguous; nothing is charged", async () => {
    const { svc, fleet, healthy } = demo;
    const atlas = fleet.endpoints.find((e) => e.kind === "healthy" && e.provider === "Atlas Maps")!;
    const before = await svc.balanceOf(svc.payer(1));
    const notProven = await svc.payingFetch(1, CAP)(verifiedUrl(), postJson({ url: atlas.url, name: "Atlas" }));
    expect(notProven.status).toBe(422);
    expect(await body(notProven)).toMatchObject({ error: "payto_not_proven", pay_to: [atlas.payTo], payer: svc.payer(1) });
    const ambiguous = await merchantFetch()(verifiedUrl(), postJson({ url: `${new URL(healthy.url).origin}/*` }));
    expect(ambiguous.status).toBe(422);
    expect((await body(ambiguous)).error).toBe("payto_ambiguous");
    expect(await svc.balanceOf(svc.payer(1))).toBe(before);
  });

  it("the demo's ghost, healthy for a week but called last 52 days ago, is refused on its verdict alone and not charged (control proven by the payTo's signature)", async () => {
    const { svc, fleet } = demo;
    const ghost = fleet.endpoints.find((e) => e.kind === "ghost")!;
    const before = await svc.balanceOf(svc.payer(3));
    const issuedAt = new Date().toISOString();
    const message = certificateProofMessage({ issuer: svc.url, url: ghost.url, name: ghost.serviceName, issuedAt });
    const signature = await privateKeyToAccount(svc.devnet.demoMerchant.privateKey).signMessage({ message });
    const res = await svc.payingFetch(3, CAP)(verifiedUrl(), postJson({ url: ghost.url, name: ghost.serviceName, proof: { signature, issuedAt } }));
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
