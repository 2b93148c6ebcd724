import { createRemoteJWKSet, jwtVerify } from "jose";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anvilAccount } from "../../src/chain/devnet-accounts.js";
import { certificateProofMessage } from "@x402-lookout/contracts/verified/proof";
import { DAY, HOUR, MINUTE } from "../../src/services/signals/constants.js";
import { recompute, seedListing, seedProbes, series } from "../helpers/catalog-fixtures.js";
import { body, refusedInput } from "../helpers/http.js";
import { postJson, startLookout, type LookoutService } from "../discovery/lookout-service.js";

let svc: LookoutService;
const CAP = { spendCapUsd: "$5" };
const NAME = `Skycast <b>"Weather"</b> & 'Co'`;
const verify = (payload: unknown, account = 0) => svc.payingFetch(account, CAP)(`${svc.url}/api/v1/verified`, postJson(payload));
const week = () => series(7 * DAY, HOUR, () => ({ price: "0.002", latency: 150 }));
// Quoteline's payTo holds no USDC: it proves control by signing, and another wallet pays.
const QUOTELINE = privateKeyToAccount(anvilAccount(11).privateKey);
const QUOTES = "https://quote.example/v1/spot";

/** The x402 payment rows and certificates a payer's requests left, and its USDC balance. */
async function ledgerOf(account: number) {
  const payer = svc.payer(account);
  const rows = await svc.ctx.db.db.selectFrom("payments").select(["id", "status"]).where("route", "=", "verified").where("payer", "=", payer).execute();
  const certificates = await svc.ctx.db.db.selectFrom("certificates").select("cert_id").where("payer_address", "=", payer).execute();
  return { statuses: rows.map((r) => r.status), certificates: certificates.length, balance: await svc.balanceOf(payer) };
}

async function proof(signer: PrivateKeyAccount, url: string, name: string | undefined, ago = MINUTE) {
  const issuedAt = new Date(Date.now() - ago).toISOString();
  return { signature: await signer.signMessage({ message: certificateProofMessage({ issuer: svc.url, url, name, issuedAt }) }), issuedAt };
}

beforeAll(async () => {
  svc = await startLookout();
  const ctx = svc.ctx;
  // Payments are signed in real time; the business clock follows it here.
  ctx.clock.set(new Date());
  // Skycast is paid to demo wallet 0, which can prove control by paying from it.
  const sky = { service: "Skycast", provider: "0xsky", payTo: svc.payer(0).toLowerCase(), price: "0.002" };
  for (const path of ["/v1/forecast", "/v1/hourly"]) await seedProbes(ctx, await seedListing(ctx, { url: `https://wx.example${path}`, ...sky }), week());
  const dead = await seedListing(ctx, { url: "https://wx.example/v2/broken", ...sky });
  await seedProbes(
    ctx,
    dead,
    series(7 * DAY, HOUR, () => ({ healthy: false, status: 500 })),
  );
  await seedProbes(ctx, await seedListing(ctx, { url: QUOTES, service: "Quoteline", payTo: QUOTELINE.address, price: "0.002" }), week());
  const coinbase = { service: "Coinbase Developer Platform", payTo: anvilAccount(12).address, firstSeenAt: new Date(Date.now() - 60 * DAY) };
  await seedProbes(ctx, await seedListing(ctx, { url: "https://cdp.example/x402/settle", ...coinbase }), week());
  await recompute(ctx);
});
afterAll(() => svc?.close());

describe("POST /api/v1/verified", () => {
  it("sells a certificate for 1 USDC to its payTo through the real x402 client; it names payTo and host, and its JWS verifies", async () => {
    const payer = svc.payer(0);
    const before = await svc.balanceOf(payer);
    const res = await verify({ url: "https://wx.example/v1/*", name: NAME });
    expect(res.status).toBe(200);
    expect(res.headers.get("payment-response")).toBeTruthy();
    const b = await body(res);
    expect(b).toMatchObject({ verified: true, tier: "verified", url: "https://wx.example/v1/*", name: NAME, listings_covered: 2 });
    expect(b).toMatchObject({ payTo: payer, host: "wx.example", provenBy: "payment" });
    expect(b.attribution.product).toBe("Verified by x402 Lookout");
    expect(Date.parse(b.validUntil) - Date.parse(b.issuedAt)).toBe(30 * DAY);
    expect(before - (await svc.balanceOf(payer))).toBe(1_000_000n);

    const jwks = createRemoteJWKSet(new URL(`${svc.url}/.well-known/jwks.json`));
    const { payload } = await jwtVerify(b.jws, jwks, { issuer: svc.url, currentDate: svc.ctx.clock.now() });
    expect(payload).toMatchObject({ certId: b.certId, tier: "verified", name: NAME, payTo: payer, host: "wx.example", provenBy: "payment" });

    const status = await body(await fetch(`${svc.url}/api/v1/verified/${b.certId}`));
    expect(status).toMatchObject({
      certId: b.certId,
      state: "verified",
      lapsed_because: [],
      jws: b.jws,
      payTo: payer,
      host: "wx.example",
      provenBy: "payment",
    });
  });

  it("refuses a payment from another wallet with 422 payto_not_proven: the claim is released, nothing settles, nothing is issued", async () => {
    const before = await ledgerOf(1);
    const res = await verify({ url: "https://wx.example/v1/*", name: "Skycast" }, 1);
    expect(res.status).toBe(422);
    expect(res.headers.get("payment-response")).toBeNull();
    expect(await body(res)).toMatchObject({
      error: "payto_not_proven",
      payment_settled: false,
      pay_to: [svc.payer(0)],
      payer: svc.payer(1),
      url: "https://wx.example/v1/*",
    });
    const after = await ledgerOf(1);
    expect(after.statuses).toEqual([...before.statuses, "released"]);
    expect(after).toMatchObject({ balance: before.balance, certificates: before.certificates });
  });

  it("issues to another wallet's payment with a fresh EIP-191 proof by the payTo", async () => {
    const before = await svc.balanceOf(svc.payer(2));
    const res = await verify({ url: QUOTES, name: "Quoteline", proof: await proof(QUOTELINE, QUOTES, "Quoteline") }, 2);
    const b = await body(res);
    expect(res.status, JSON.stringify(b)).toBe(200);
    expect(b).toMatchObject({ payTo: QUOTELINE.address, host: "quote.example", provenBy: "signature", name: "Quoteline" });
    expect(before - (await svc.balanceOf(svc.payer(2)))).toBe(1_000_000n);
  });

  it("refuses a proof by another key, a stale proof and a tampered message with 422, charging nothing", async () => {
    const before = await ledgerOf(3);
    const cases = [
      {
        code: "proof_invalid",
        req: { url: QUOTES, name: "Quoteline", proof: await proof(privateKeyToAccount(anvilAccount(13).privateKey), QUOTES, "Quoteline") },
      },
      { code: "proof_stale", req: { url: QUOTES, name: "Quoteline", proof: await proof(QUOTELINE, QUOTES, "Quoteline", 11 * MINUTE) } },
      { code: "proof_invalid", req: { url: QUOTES, name: "Quoteline Official", proof: await proof(QUOTELINE, QUOTES, "Quoteline") } },
    ];
    for (const { code, req } of cases) {
      const res = await verify(req, 3);
      expect(res.status, code).toBe(422);
      expect(await body(res)).toMatchObject({ error: code, payment_settled: false, pay_to: [QUOTELINE.address], payer: svc.payer(3) });
    }
    const after = await ledgerOf(3);
    expect(after.statuses).toEqual([...before.statuses, "released", "released", "released"]);
    expect(after).toMatchObject({ balance: before.balance, certificates: before.certificates });
  });

  it("refuses a name imitating another provider's service with 422 name_imitates, charging nothing", async () => {
    const before = await ledgerOf(0);
    const res = await verify({ url: "https://wx.example/v1/*", name: "Coinbase Official x402 Gateway" });
    expect(res.status).toBe(422);
    expect(await body(res)).toMatchObject({
      error: "name_imitates",
      payment_settled: false,
      imitates: [{ service: "Coinbase Developer Platform", rule: "brand" }],
      catalog_name: "Skycast",
    });
    const after = await ledgerOf(0);
    expect(after.statuses).toEqual([...before.statuses, "released"]);
    expect(after).toMatchObject({ balance: before.balance, certificates: before.certificates });
  });

  it("answers 422 not_verified with the failed criteria to the payTo, and settles nothing", async () => {
    const payer = svc.payer(0);
    const before = await svc.balanceOf(payer);
    const res = await verify({ url: "https://wx.example/*", name: "Skycast all" });
    expect(res.status).toBe(422);
    const b = await body(res);
    expect(b).toMatchObject({ error: "not_verified", tier: "not_verified", verified: false, payment_settled: false, url: "https://wx.example/*" });
    expect(b.failed_criteria.map((c: { id: string }) => c.id)).toEqual(["uptime_7d", "no_critical_warning", "clean_verdict", "x402_v2_challenge"]);
    expect(b.failed_criteria[0].failing).toEqual([{ url: "https://wx.example/v2/broken", method: "POST", observed: 0 }]);
    expect(b.criteria).toHaveLength(8);
    expect(await svc.balanceOf(payer)).toBe(before);
  });

  it("refuses a bad pattern, name or proof with 400 before asking for payment", async () => {
    for (const bad of [
      { url: "https://*.example.com/", name: "x" },
      { url: "https://wx.example/v1?q=*", name: "x" },
      { url: "https://wx.example/v1/*", name: "" },
      { url: "https://wx.example/v1/*", name: "x".repeat(81) },
      { url: "https://wx.example/v1/*", name: "line\nbreak" },
      { url: "https://wx.example/v1/*", proof: { signature: "0x1234", issuedAt: new Date().toISOString() } },
      { url: "https://wx.example/v1/*", proof: { signature: `0x${"ab".repeat(65)}`, issuedAt: "yesterday" } },
      { name: "Skycast" },
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
  it("show the live state, the proven payTo and the host, escape the name, and turn lapsed when an endpoint stops meeting the criteria", async () => {
    const b = await body(await verify({ url: "https://wx.example/v1/forecast", name: NAME }));
    const payTo = svc.payer(0);
    const badge = await fetch(b.badgeUrl);
    expect(badge.status).toBe(200);
    expect(badge.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    const svg = await badge.text();
    expect(svg).toContain("x402 verified");
    expect(svg).toContain("Skycast &lt;b&gt;&quot;Weather&quot;&lt;/b&gt; &amp; &#39;Co&#39;");
    expect(svg).not.toContain("<b>");
    expect(svg).toContain(`wx.example · ${payTo.slice(0, 6)}…${payTo.slice(-4)}`);
    expect(svg).toContain(`(wx.example, payTo ${payTo})`);

    const page = await fetch(b.pageUrl);
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain("Verified.");
    expect(text).not.toContain('<b>"Weather"</b>');
    expect(text).toContain("https://wx.example/v1/forecast");
    expect(text).toContain(`For endpoints on <code>wx.example</code> paid to <code>${payTo}</code>`);
    expect(text).toContain("proven: the certificate was paid from this address");
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
