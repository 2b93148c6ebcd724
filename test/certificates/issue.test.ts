import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activeSigningKey, publicJwks } from "../../src/services/certificates/signing-keys.js";
import { issueCertificate } from "../../src/services/certificates/issue.js";
import { viewCertificate } from "../../src/services/certificates/live-state.js";
import { DAY, HOUR, MINUTE } from "../../src/services/signals/constants.js";
import { recompute, seedListing, seedProbes, series } from "../helpers/catalog-fixtures.js";
import { createTestContext, type TestContext } from "../helpers/context.js";

let ctx: TestContext;
const deps = () => ({ db: ctx.db.db, clock: ctx.clock, publicBaseUrl: ctx.config.publicBaseUrl });
// Each provider's payTo; a request paid from it proves control (control.test.ts covers the rest).
const PAY_TO = {
  sky: "0x1111111111111111111111111111111111111111",
  oracle: "0x2222222222222222222222222222222222222222",
  resell: "0x3333333333333333333333333333333333333333",
  ghost: "0x4444444444444444444444444444444444444444",
};
type Input = Parameters<typeof issueCertificate>[1];
const issue = (input: Input) => issueCertificate(deps(), { payer: PAY_TO.sky, ...input });
const week = (make: Parameters<typeof series>[2] = () => ({})) => series(7 * DAY, HOUR, (i) => ({ price: "0.002", latency: 120, ...make(i) }));

beforeAll(async () => {
  ctx = await createTestContext();
  const seed = async (url: string, probes: Parameters<typeof seedProbes>[2], extra: Partial<Parameters<typeof seedListing>[1]> = {}) => {
    const id = await seedListing(ctx, { url, service: "Skycast", provider: "0xsky", payTo: PAY_TO.sky, price: "0.002", ...extra });
    await seedProbes(ctx, id, probes);
    return id;
  };
  await seed("https://wx.example/v1/forecast", week());
  await seed("https://wx.example/v1/forecast", week(), { method: "GET" });
  await seed("https://wx.example/v1/hourly", week());
  // Healthy, but only 19 probes in the week.
  await seed(
    "https://wx.example/v2/young",
    series(19 * HOUR, HOUR, () => ({ price: "0.002" })),
  );
  // 90% uptime.
  await seed(
    "https://wx.example/v2/flaky",
    week((i) => (i % 10 === 5 ? { healthy: false, status: 503 } : {})),
  );
  // Slow tail: p99 well above 5 s.
  await seed(
    "https://wx.example/v2/slow",
    week((i) => ({ latency: i % 20 === 3 ? 8000 : 150 })),
  );
  // A decoy price, and a latest probe without a challenge.
  await seed(
    "https://wx.example/v2/pricey",
    week(() => ({ price: "6" })),
    { price: "6" },
  );
  await seed("https://wx.example/v2/plain", [...week().slice(1), { ago: 1000, status: 200, price: null }]);
  await seed("https://other.example/v1/forecast", week());
  // Healthy for a week, but not clean: a wildcard-402 host (one real path, two synthetic), a
  // reseller of Skycast's forecast at 5x its price, and a ghost nobody has called in 52 days.
  for (const path of ["/feeds/btc", "/feeds/SOL-USD/1m", "/feeds/ETH-USD/5m"])
    await seed(`https://wild.example${path}`, week(), { service: "Oracle", provider: "0xoracle", payTo: PAY_TO.oracle });
  await ctx.db.db
    .insertInto("host_checks")
    .values({ host: "wild.example", wildcard_402_detected: true, wildcard_402_checked_at: ctx.clock.now(), spa_fallback_checked_at: ctx.clock.now() })
    .execute();
  await seed(
    "https://resell.example/proxy/wx.example/v1/forecast",
    week(() => ({ price: "0.01" })),
    { service: "Resell", provider: "0xresell", payTo: PAY_TO.resell, price: "0.01" },
  );
  const longAgo = new Date(ctx.clock.now().getTime() - 52 * DAY);
  await seed("https://ghost.example/v1/quote", week(), {
    service: "Ghost",
    provider: "0xghost",
    payTo: PAY_TO.ghost,
    firstSeenAt: longAgo,
    l30dCalls: 0,
    lastCalledAt: longAgo,
  });
  await recompute(ctx);
});
afterAll(() => ctx?.close());

describe("issueCertificate", () => {
  it("certifies an endpoint: every listed method of the URL, a 30-day validity and a JWS that verifies against the JWKS", async () => {
    const r = await issue({ url: "https://wx.example/v1/forecast", name: "Skycast forecast" });
    if (!r.verified) throw new Error(JSON.stringify(r.failed));
    const c = r.certificate;
    expect(c).toMatchObject({
      verified: true,
      tier: "verified",
      url: "https://wx.example/v1/forecast",
      payTo: "0x1111111111111111111111111111111111111111",
      host: "wx.example",
      provenBy: "payment",
      listings_covered: 2,
      validUntil: "2026-12-20T12:00:00.000Z",
    });
    expect(c.badgeUrl).toBe(`http://lookout.test/verified/${c.certId}/badge.svg`);
    expect(c.pageUrl).toBe(`http://lookout.test/verified/${c.certId}`);
    expect(c.criteria.map((x) => [x.id, x.met])).toEqual([
      ["in_catalog", true],
      ["probes_7d", true],
      ["uptime_7d", true],
      ["no_critical_warning", true],
      ["clean_verdict", true],
      ["p99_latency_7d", true],
      ["price_range", true],
      ["x402_v2_challenge", true],
    ]);
    const { payload, protectedHeader } = await jwtVerify(c.jws, createLocalJWKSet(await publicJwks(ctx.db.db, ctx.clock.now())), {
      issuer: "http://lookout.test",
      currentDate: ctx.clock.now(),
    });
    expect(protectedHeader).toMatchObject({ alg: "EdDSA", typ: "JWT" });
    expect(payload).toMatchObject({
      certId: c.certId,
      url: c.url,
      name: "Skycast forecast",
      payTo: c.payTo,
      host: "wx.example",
      provenBy: "payment",
      tier: "verified",
      sub: c.url,
      jti: c.certId,
      iss: "http://lookout.test",
    });
    expect(payload.exp! - payload.iat!).toBe(30 * 86_400);
    expect((payload.criteria as Record<string, { met: boolean }>).uptime_7d!.met).toBe(true);
  });

  it("certifies a path-prefix pattern over every active listing under it", async () => {
    const r = await issue({ url: "https://wx.example/v1/*", name: "Skycast v1" });
    expect(r.verified).toBe(true);
    if (r.verified) expect(r.certificate).toMatchObject({ url: "https://wx.example/v1/*", listings_covered: 3 });
  });

  it("reports each failed criterion with the URLs that fail it, and stores nothing", async () => {
    const before = await ctx.db.db
      .selectFrom("certificates")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    const r = await issue({ url: "https://wx.example/v2/*", name: "Skycast v2" });
    if (r.verified) throw new Error("expected not verified");
    const failing = Object.fromEntries(r.failed.map((c) => [c.id, c.failing.map((f) => f.url)]));
    expect(failing).toEqual({
      // The stored verdicts: price_outlier_high (6 USDC against a 0.002 median) and slow_p99 keep these two off pay.
      clean_verdict: ["https://wx.example/v2/pricey", "https://wx.example/v2/slow"],
      probes_7d: ["https://wx.example/v2/young"],
      uptime_7d: ["https://wx.example/v2/flaky"],
      p99_latency_7d: ["https://wx.example/v2/slow"],
      price_range: ["https://wx.example/v2/pricey"],
      x402_v2_challenge: ["https://wx.example/v2/plain"],
    });
    expect(r.criteria).toHaveLength(8);
    expect(r.failed.find((c) => c.id === "uptime_7d")!.observed).toBeCloseTo(90, 0);
    const after = await ctx.db.db
      .selectFrom("certificates")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it.each([
    ["a synthetic listing of a wildcard-402 host", "https://wild.example/feeds/SOL-USD/1m", "wildcard_402", 1],
    ["the wildcard-402 host by pattern", "https://wild.example", "wildcard_402", 3],
    ["a reseller at 5x markup", "https://resell.example/proxy/wx.example/v1/forecast", "proxy_markup", 1],
    ["a ghost listing nobody called in 52 days", "https://ghost.example/v1/quote", "ghost_listing", 1],
  ])("refuses %s: every other criterion holds, the verdict is not clean", async (_, url, reason, covered) => {
    const owner = url.includes("wild.") ? PAY_TO.oracle : url.includes("resell.") ? PAY_TO.resell : PAY_TO.ghost;
    const r = await issue({ url, name: "Not clean", payer: owner });
    if (r.verified) throw new Error(`certified ${url}`);
    expect(r.failed.map((c) => c.id)).toEqual(["clean_verdict"]);
    expect(r.failed[0]).toMatchObject({ observed: reason, failing_count: covered });
  });

  it("answers not verified for a URL no listing matches", async () => {
    const r = await issue({ url: "https://nowhere.example/api", name: "Nobody" });
    expect(r.verified).toBe(false);
    if (!r.verified) expect(r.failed.map((c) => c.id)).toContain("in_catalog");
  });

  it("keeps one signing key, created once even when processes race for it", async () => {
    const keys = await Promise.all(Array.from({ length: 5 }, () => activeSigningKey(ctx.db.db)));
    expect(new Set(keys.map((k) => k.kid)).size).toBe(1);
    const rows = await ctx.db.db.selectFrom("signing_keys").select(["kid", "public_jwk"]).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.public_jwk).toMatchObject({ kty: "OKP", crv: "Ed25519", alg: "EdDSA", use: "sig", kid: rows[0]!.kid });
    expect(rows[0]!.public_jwk).not.toHaveProperty("d");
    const r = await issue({ url: "https://other.example/v1/forecast", name: "Other" });
    if (r.verified) expect(decodeProtectedHeader(r.certificate.jws).kid).toBe(rows[0]!.kid);
  });
});

describe("a certificate bought with a payment", () => {
  it("exists publicly only once its payment settled, and a retried payment replaces it", async () => {
    const payment = await ctx.db.db
      .insertInto("payments")
      .values({
        authorization_key: "test:payer:nonce-1",
        request_id: "req-1",
        route: "verified",
        network: "eip155:84532",
        amount_atomic: "1000000",
        status: "claimed",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const first = await issue({ url: "https://other.example/v1/forecast", name: "First try", paymentId: payment.id });
    if (!first.verified) throw new Error("expected verified");
    expect(first.certificate.certId).toBe(payment.id);
    expect(await viewCertificate(deps(), payment.id)).toBeUndefined();

    await issue({ url: "https://other.example/v1/forecast", name: "Second try", paymentId: payment.id });
    await ctx.db.db.updateTable("payments").set({ status: "settled" }).where("id", "=", payment.id).execute();
    expect(await viewCertificate(deps(), payment.id)).toMatchObject({ name: "Second try", state: "verified" });
    expect(await ctx.db.db.selectFrom("certificates").select("cert_id").where("cert_id", "=", payment.id).execute()).toHaveLength(1);
  });
});

describe("live state", () => {
  it("is verified while the criteria hold, lapsed once an endpoint stops meeting one, and lapsed after validUntil", async () => {
    const r = await issue({ url: "https://wx.example/v1/hourly", name: "Hourly" });
    if (!r.verified) throw new Error("expected verified");
    const id = r.certificate.certId;
    expect((await viewCertificate(deps(), id))!).toMatchObject({ state: "verified", lapsedBecause: [] });

    // The endpoint goes down: three failed probes in 30 minutes make it `dead` (critical).
    const listing = await ctx.db.db.selectFrom("listings").select("id").where("url", "=", "https://wx.example/v1/hourly").executeTakeFirstOrThrow();
    ctx.clock.advance(30 * MINUTE);
    await seedProbes(
      ctx,
      Number(listing.id),
      series(30 * MINUTE, 9 * MINUTE, () => ({ healthy: false, status: 503 })),
    );
    await recompute(ctx);
    const down = (await viewCertificate(deps(), id))!;
    expect(down.state).toBe("lapsed");
    expect(down.lapsedBecause.join("; ")).toMatch(/no_critical_warning no longer met .*dead/);
    expect(down.lapsedBecause.join("; ")).toMatch(/x402_v2_challenge no longer met/);

    ctx.clock.advance(31 * DAY);
    expect((await viewCertificate(deps(), id))!.lapsedBecause[0]).toBe("expired on 2026-12-20T12:00:00.000Z");
    expect(await viewCertificate(deps(), "not-a-uuid")).toBeUndefined();
  });
});
