import { createLocalJWKSet, decodeProtectedHeader, errors, jwtVerify, type JSONWebKeySet } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requirementDigest, readPaymentRequired } from "@x402-lookout/contracts/quote";
import { VERDICT_JWS } from "@x402-lookout/contracts/verdict";
import { createApp, type App } from "../../src/http/app.js";
import type { AnyRouteDef } from "../../src/http/registry.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { forensicsRoute } from "../../src/http/routes/preflight/forensics.js";
import { preflightBatchRoute } from "../../src/http/routes/preflight/preflight-batch.js";
import { preflightRoute } from "../../src/http/routes/preflight/preflight.js";
import { HOUR, MINUTE } from "../../src/services/signals/constants.js";
import { recompute, seedListing, seedProbes, series } from "../helpers/catalog-fixtures.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { body } from "../helpers/http.js";

const BASE = "https://lookout.test.example";
const URL_ = "https://weather.example/v1/forecast";
const PAY_TO = "0x00000000000000000000000000000000000000aa";
const USDC = "0x036CbD53842c5426634e7929541eC2318f3dCF7e"; // Base Sepolia
const unpaid = (def: AnyRouteDef, path: string): AnyRouteDef => ({ ...def, id: `${def.id}-test`, path, price: null, product: undefined });

let ctx: TestContext;
let app: App;
let jwks: ReturnType<typeof createLocalJWKSet>;

// A client network may spend 5 of a host's 50 trial calls a day (decision 0027): tests that need more name another.
const post = async (path: string, payload: unknown, ip = "203.0.113.9") =>
  app.request(path, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": ip }, body: JSON.stringify(payload) });
const verify = (jws: string, at = ctx.clock.now()) => jwtVerify(jws, jwks, { typ: VERDICT_JWS.typ, algorithms: ["EdDSA"], currentDate: at });

/** The listing's own quote, with one term changed. */
const quote = (change: Record<string, unknown> = {}) => ({
  x402Version: 2,
  resource: { url: URL_, description: "", mimeType: "application/json" },
  accepts: [{ scheme: "exact", network: "eip155:84532", asset: USDC, amount: "2000", payTo: PAY_TO, maxTimeoutSeconds: 60, extra: {}, ...change }],
});

beforeAll(async () => {
  ctx = await createTestContext({ TRUST_PROXY: "true", PUBLIC_BASE_URL: BASE });
  const routes = [...productRoutes, unpaid(preflightRoute, "/t/preflight"), unpaid(preflightBatchRoute, "/t/batch"), unpaid(forensicsRoute, "/t/forensics")];
  app = createApp({ ctx, routes, validateResponses: true });
  const id = await seedListing(ctx, { url: URL_, service: "Skycast", provider: "0xaaa", payTo: PAY_TO, price: "0.002" });
  await ctx.db.db.updateTable("listings").set({ asset: USDC }).where("id", "=", id).execute();
  await seedProbes(
    ctx,
    id,
    series(HOUR, 10 * MINUTE, () => ({ latency: 120, price: "0.002" })),
  );
  await recompute(ctx);
  jwks = createLocalJWKSet((await body(await app.request("/.well-known/jwks.json"))) as JSONWebKeySet);
}, 60_000);
afterAll(async () => ctx?.close());

describe("signed verdicts", () => {
  it("every verdict product signs its verdict with the served key; the claims are the answer's", async () => {
    const trial = await body(await post("/api/v1/preflight-trial", { url: URL_ }));
    const paid = await body(await post("/t/preflight", { url: URL_, method: "get" }));
    const forensics = await body(await post("/t/forensics", { url: URL_ }));
    const batch = await body(await post("/t/batch", { urls: [URL_, { url: "https://nowhere.example/x", method: "PUT" }] }));
    const answers = [
      { a: trial, view: "preflight", method: "POST", observed: trial.observed_at },
      { a: paid, view: "preflight", method: "GET", observed: paid.observed_at },
      { a: forensics, view: "forensics", method: "POST", observed: forensics.observed_at },
      ...batch.results.map((r: { method?: string }, i: number) => ({ a: r, view: "preflight", method: i === 0 ? "POST" : "PUT", observed: batch.observed_at })),
    ];
    const { keys } = await body(await app.request("/.well-known/jwks.json"));
    for (const { a, view, method, observed } of answers) {
      const { payload, protectedHeader } = await verify(a.signature);
      expect(protectedHeader).toEqual({ alg: "EdDSA", typ: "lookout-verdict+jwt", kid: keys[0].kid });
      expect(payload).toEqual({
        iss: BASE,
        url: a.url ?? a.metadata.url,
        method,
        requirement_digest: null,
        view,
        ok: a.ok,
        recommended_action: a.recommended_action,
        warnings: a.warnings,
        reason_codes: a.reason_codes,
        risk_score: a.risk_score,
        observed_at: observed,
        exp: Date.parse(observed) / 1000 + 300,
      });
      expect(a.quote).toBeUndefined();
    }
    expect(batch.results[1].warnings).toContain("unknown_endpoint");
  });

  it("the sample in docs/verdicts.md (examples/verify-verdict.ts) verifies a verdict against a saved JWKS", async () => {
    const { verifyVerdict } = await import("../../examples/verify-verdict.js");
    const saved = await body(await app.request("/.well-known/jwks.json"));
    const r = await body(await post("/t/preflight", { url: URL_ }));
    const { claims, kid } = await verifyVerdict(r.signature, { jwks: saved }, ctx.clock.now());
    expect(kid).toBe(saved.keys[0].kid);
    expect(claims).toMatchObject({ url: URL_, ok: r.ok, warnings: r.warnings, observed_at: r.observed_at });
    await expect(verifyVerdict(r.signature, { jwks: saved }, new Date(ctx.clock.now().getTime() + 301_000))).rejects.toThrow(
      /"exp" claim timestamp check failed/,
    );
  });

  it("fails after any signed field is changed, and after five minutes", async () => {
    const report = await body(await post("/t/preflight", { url: URL_ }));
    const [header, payload, sig] = report.signature.split(".");
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    const changes: Record<string, unknown> = {
      iss: "https://evil.example",
      url: "https://weather.example/v1/other",
      method: "PUT",
      requirement_digest: "AAAA",
      view: "forensics",
      ok: !claims.ok,
      recommended_action: "skip",
      warnings: ["dead"],
      reason_codes: ["cloaking"],
      risk_score: 0.99,
      observed_at: "2026-11-20T12:09:00.000Z",
      exp: claims.exp + 3600,
    };
    expect(Object.keys(changes).sort()).toEqual(Object.keys(claims).sort());
    for (const [field, value] of Object.entries(changes)) {
      const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, [field]: value })).toString("base64url")}.${sig}`;
      await expect(verify(forged), field).rejects.toBeInstanceOf(errors.JWSSignatureVerificationFailed);
    }
    const otherKid = Buffer.from(JSON.stringify({ ...decodeProtectedHeader(report.signature), kid: "another" })).toString("base64url");
    await expect(verify(`${otherKid}.${payload}.${sig}`)).rejects.toBeInstanceOf(errors.JWKSNoMatchingKey);
    await expect(verify(report.signature, new Date(Date.parse(report.observed_at) + 301_000))).rejects.toBeInstanceOf(errors.JWTExpired);
    await expect(verify(report.signature, new Date(Date.parse(report.observed_at) + 299_000))).resolves.toBeTruthy();
  });

  it("a quote that is the listing's own: quote object all matching, the digest bound, no quote warning", async () => {
    const q = quote();
    const r = await body(await post("/t/preflight", { url: URL_, paymentRequired: q }));
    const digest = await requirementDigest(readPaymentRequired(q)!.accepts[0]!);
    expect(r.quote).toMatchObject({ requirement_index: 0, requirement_digest: digest, warnings: [] });
    expect(r.quote.terms.pay_to).toMatchObject({ value: PAY_TO, catalog: PAY_TO, matches_catalog: true });
    expect(r.quote.terms.amount).toMatchObject({ value: "2000", catalog: "2000", matches_catalog: true });
    expect((await verify(r.signature)).payload.requirement_digest).toBe(digest);
    // The base64 PAYMENT-REQUIRED header value reads the same.
    const header = Buffer.from(JSON.stringify(q)).toString("base64");
    const viaHeader = await body(await post("/t/preflight", { url: URL_, paymentRequired: header }));
    expect(viaHeader.quote.requirement_digest).toBe(digest);
  });

  it.each([
    ["payTo", { payTo: "0x00000000000000000000000000000000000000bb" }, "pay_to_mismatch", "pay_to", true],
    ["asset", { asset: "0x1111111111111111111111111111111111111111" }, "asset_not_usdc", "asset", true],
    ["network", { network: "eip155:8453", asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" }, "network_mismatch", "network", true],
    ["amount above the observed", { amount: "900000" }, "price_switch", "amount", false],
  ])("a quote with another %s: the quote object says which term, its warning is in the signed verdict", async (_name, change, code, term, critical) => {
    for (const path of ["/t/preflight", "/api/v1/preflight-trial", "/t/forensics"]) {
      const r = await body(await post(path, { url: URL_, paymentRequired: quote(change) }));
      // Every quote code is an addition: reason_codes names it, the spec's warnings do not (decision 0045).
      expect(r.reason_codes, path).toContain(code);
      expect(r.warnings, path).not.toContain(code);
      expect(r.quote.warnings).toContain(code);
      expect(r.quote.terms[term].matches_catalog, path).toBe(false);
      // A payTo, asset or network not the listed one is critical; a price trap is a warning (issue 24 item 4).
      if (critical) expect(r).toMatchObject({ ok: false });
      if (critical) expect(r.recommended_action).not.toBe("pay");
      const { payload } = await verify(r.signature);
      expect(payload).toMatchObject({
        ok: r.ok,
        recommended_action: r.recommended_action,
        warnings: r.warnings,
        reason_codes: r.reason_codes,
        requirement_digest: r.quote.requirement_digest,
      });
    }
    const batch = await body(await post("/t/batch", { urls: [{ url: URL_, paymentRequired: quote(change) }, "https://weather.example/v1/forecast?x=1"] }));
    expect(batch.results[0].reason_codes).toContain(code);
    expect((await verify(batch.results[0].signature)).payload.requirement_digest).toBe(batch.results[0].quote.requirement_digest);
  });

  it("refuses a paymentRequired it cannot read with 400 naming the field", async () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ["/api/v1/preflight-trial", { url: URL_, paymentRequired: "not base64 at all" }, /^paymentRequired: not a readable PAYMENT-REQUIRED header value/],
      ["/api/v1/preflight-trial", { url: URL_, paymentRequired: { accepts: [] } }, /^paymentRequired: not a readable x402 challenge/],
      ["/api/v1/preflight-trial", { url: URL_, paymentRequired: 7 }, /^paymentRequired: must be the 402 body object/],
      ["/api/v1/preflight-trial", { url: URL_, method: "GET /x" }, /^method: must be an HTTP method/],
      ["/t/forensics", { url: URL_, paymentRequired: { accepts: [{ scheme: "exact" }] } }, /^paymentRequired: not a readable x402 challenge/],
      ["/t/batch", { urls: [URL_, { url: URL_, paymentRequired: "e30=" }] }, /^urls\[1\]\.paymentRequired: not a readable PAYMENT-REQUIRED/],
      ["/t/batch", { urls: [URL_, 5] }, /^urls\[1\]: must be an http\(s\) URL or an object/],
    ];
    for (const [path, payload, message] of cases) {
      const res = await post(path, payload);
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect((await body(res)).message).toMatch(message);
    }
    // Still 413 above 50 elements, whatever their form.
    const many = Array.from({ length: 51 }, (_, i) => ({ url: `https://a.example/${i}` }));
    expect((await post("/t/batch", { urls: many })).status).toBe(413);
  });

  it("the trial neither serves nor stores a cached answer for a quote-bound call", async () => {
    const ip = "198.51.100.7";
    const plain = await body(await post("/api/v1/preflight-trial", { url: URL_ }, ip));
    const bound = await body(
      await post("/api/v1/preflight-trial", { url: URL_, paymentRequired: quote({ payTo: "0x00000000000000000000000000000000000000cc" }) }, ip),
    );
    expect(bound.reason_codes).toContain("pay_to_mismatch");
    expect(bound.quote).toBeDefined();
    const again = await body(await post("/api/v1/preflight-trial", { url: URL_ }, ip));
    expect(again).toEqual(plain);
  });
});
