import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { encodePaymentRequiredHeader } from "@x402/core/http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, type App } from "../../src/http/app.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { HOUR, MINUTE } from "../../src/services/signals/constants.js";
import { recompute, seedListing, seedProbes, series } from "../helpers/catalog-fixtures.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { body } from "../helpers/http.js";

let ctx: TestContext;
let app: App;
let target: Server;
let targetUrl: string;

const trial = (url: string, ip = "203.0.113.7") =>
  app.request("/api/v1/preflight-trial", {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": ip },
    body: JSON.stringify({ url }),
  });

beforeAll(async () => {
  ctx = await createTestContext({ TRUST_PROXY: "true" });
  app = createApp({ ctx, routes: productRoutes, validateResponses: true });
  // An uncatalogued x402 endpoint asking 2000 USDC: the live probe must catch it.
  target = createServer((req, res) => {
    // A GET-only endpoint asking 49 USDC: POST is refused, the live probe must try GET.
    const getOnly = req.url === "/get-only";
    if (getOnly && req.method !== "GET") return void res.writeHead(405, { allow: "GET" }).end();
    const challenge = {
      x402Version: 2,
      resource: { url: "x" },
      accepts: [
        {
          scheme: "exact",
          network: "eip155:84532",
          asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
          amount: getOnly ? "49000000" : "2000000000",
          payTo: "0x0000000000000000000000000000000000000001",
          maxTimeoutSeconds: 300,
          extra: {},
        },
      ],
    };
    res.writeHead(402, { "payment-required": encodePaymentRequiredHeader(challenge as never), "content-type": "application/json" });
    res.end("{}");
  });
  await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/alpha`;

  const healthy = await seedListing(ctx, { url: "https://weather.example/v1/forecast", service: "Skycast", provider: "0xaaa", price: "0.002" });
  await seedProbes(
    ctx,
    healthy,
    series(HOUR, 10 * MINUTE, () => ({ latency: 120, price: "0.002" })),
  );
  const dead = await seedListing(ctx, { url: "https://dead.example/v1/x", service: "Gone", price: "0.001" });
  await seedProbes(
    ctx,
    dead,
    series(30 * MINUTE, 9 * MINUTE, () => ({ healthy: false, status: 503 })),
  );
  const decoy = await seedListing(ctx, { url: "https://premium.example/alpha", service: "Premium", price: "2500" });
  await seedProbes(
    ctx,
    decoy,
    series(HOUR, 10 * MINUTE, () => ({ price: "2500" })),
  );
  await seedListing(ctx, { url: "https://fresh.example/new", service: "Fresh", price: "0.01" });
  await recompute(ctx);
});
afterAll(async () => {
  target?.close();
  await ctx?.close();
});

describe("preflight verdicts", () => {
  it("passes a healthy, well-observed endpoint", async () => {
    const res = await trial("https://weather.example/v1/forecast");
    expect(res.status).toBe(200);
    const r = await body(res);
    expect(r).toMatchObject({ ok: true, warnings: [], risk_score: 0, confidence: 1, recommended_action: "pay" });
    expect(r.metadata).toMatchObject({
      url: "https://weather.example/v1/forecast",
      service: "Skycast",
      price_usdc: "0.002",
      currency: "USDC",
      uptime_1h_pct: 100,
      avg_latency_ms: 120,
      is_active: true,
      wildcard_402_detected: false,
      effective_count_basis: null,
    });
    expect(r.evidence).toMatchObject({ probes_1h: 6, healthy_1h: 6, errors_30m: 0, price_amount_usdc: "0.002", proxy_markup: { detected: false } });
    expect(r.attribution.product).toBe("Preflight Trial by x402 Lookout");
  });

  it("blocks a dead endpoint and points to alternatives", async () => {
    const r = await body(await trial("https://dead.example/v1/x"));
    expect(r).toMatchObject({ ok: false, recommended_action: "use_alternatives", risk_score: 1 });
    expect(r.warnings).toContain("dead");
    expect(r.evidence.errors_30m).toBe(3);
  });

  it("skips a decoy", async () => {
    const r = await body(await trial("https://premium.example/alpha"));
    expect(r).toMatchObject({ ok: false, recommended_action: "skip", warnings: ["decoy_price_extreme"] });
  });

  it("says no_history for a listing not probed yet", async () => {
    const r = await body(await trial("https://fresh.example/new"));
    expect(r.warnings).toEqual(["no_history"]);
    expect(r).toMatchObject({ ok: true, confidence: 0, recommended_action: "investigate" });
  });

  it("catches an uncatalogued decoy with a live probe", async () => {
    const r = await body(await trial(targetUrl));
    expect(r.warnings).toEqual(["unknown_endpoint", "decoy_price_extreme"]);
    expect(r).toMatchObject({ ok: false, recommended_action: "skip", confidence: 0.2 });
    expect(r.metadata).toMatchObject({ price_usdc: "2000", is_active: false });
  });

  it("tries GET when the uncatalogued URL refuses POST", async () => {
    const r = await body(await trial(targetUrl.replace("/alpha", "/get-only")));
    expect(r.warnings).toEqual(["unknown_endpoint", "suspicious_high_price"]);
    expect(r).toMatchObject({ recommended_action: "skip" });
    expect(r.metadata).toMatchObject({ price_usdc: "49" });
  });
});

describe("trial limits and cache", () => {
  it("allows 10 calls per IP per UTC day, then 429 until midnight", async () => {
    ctx.clock.set("2026-11-21T23:59:00.000Z");
    for (let i = 0; i < 10; i++) expect((await trial("https://weather.example/v1/forecast", "198.51.100.1")).status).toBe(200);
    const limited = await trial("https://weather.example/v1/forecast", "198.51.100.1");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("60");
    expect(limited.headers.get("x-rate-limit-reset")).toBe(String(Date.parse("2026-11-22T00:00:00Z") / 1000));
    expect(await body(limited)).toMatchObject({ error: "rate_limited", scope: "ip" });
    ctx.clock.set("2026-11-22T00:00:01.000Z");
    expect((await trial("https://weather.example/v1/forecast", "198.51.100.1")).status).toBe(200);
  });

  // A call answered from the 300 s cache costs the host nothing, and one client network (/24)
  // makes at most 5 of a host's calls a day (decision 0027): these calls come 301 s apart, each
  // from its own network.
  const spaced = async (url: string, ip: string) => {
    ctx.clock.advance(301_000);
    return trial(url, ip);
  };

  it("allows 50 calls per target host per day across client networks", async () => {
    ctx.clock.set("2026-11-23T10:00:00.000Z");
    for (let i = 0; i < 50; i++) expect((await spaced("https://premium.example/alpha", `192.0.${i}.1`)).status).toBe(200);
    const limited = await spaced("https://premium.example/alpha", "192.0.200.1");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBeTruthy();
    expect(limited.headers.get("x-rate-limit-reset")).toBe(String(Date.parse("2026-11-24T00:00:00Z") / 1000));
    expect((await body(limited)).scope).toBe("host");
  });

  it("does not count a call refused at the IP limit against the host", async () => {
    ctx.clock.set("2026-11-25T10:00:00.000Z");
    for (let i = 0; i < 4; i++) expect((await spaced("https://premium.example/alpha", "198.51.100.9")).status).toBe(200);
    for (let i = 0; i < 6; i++) expect((await trial("https://dead.example/v1/x", "198.51.100.9")).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await spaced("https://premium.example/alpha", "198.51.100.9")).status).toBe(429);
    // 4 of the host's 50 calls used: 46 more from other networks pass, the 51st is refused.
    for (let i = 0; i < 46; i++) expect((await spaced("https://premium.example/alpha", `192.0.${i}.2`)).status).toBe(200);
    expect(await body(await spaced("https://premium.example/alpha", "192.0.99.2"))).toMatchObject({ scope: "host" });
  });

  it("keeps five addresses from using up a host: a network gets 5 of its calls, cached answers are free", async () => {
    ctx.clock.set("2026-11-27T10:00:00.000Z");
    // Five clients in five networks, ten calls each: five each reach the host, the rest are refused for their network.
    for (let c = 0; c < 5; c++) {
      const statuses = [];
      for (let i = 0; i < 10; i++) statuses.push((await spaced("https://premium.example/alpha", `203.0.${c}.9`)).status);
      expect(statuses).toEqual([...Array(5).fill(200), ...Array(5).fill(429)]);
    }
    const refused = await spaced("https://premium.example/alpha", "203.0.0.10");
    expect(await body(refused)).toMatchObject({ error: "rate_limited", scope: "host_network", limit: 5 });
    expect(refused.headers.get("x-rate-limit-reset")).toBe(String(Date.parse("2026-11-28T00:00:00Z") / 1000));
    // Everyone else still gets the host: 25 of its 50 are used.
    expect((await spaced("https://premium.example/alpha", "198.18.7.1")).status).toBe(200);
    // Within 300 s a repeated URL is answered from the cache: no host count, even past the network's share.
    ctx.clock.advance(301_000);
    expect((await trial("https://premium.example/alpha", "203.0.5.1")).status).toBe(200);
    for (let i = 0; i < 9; i++) expect((await trial("https://premium.example/alpha", "203.0.5.1")).status).toBe(200);
    // The IP's own 10 a day still hold.
    expect(await body(await trial("https://premium.example/alpha", "203.0.5.1"))).toMatchObject({ scope: "ip" });
  });

  it("never lets concurrent calls overshoot a limit", async () => {
    ctx.clock.set("2026-11-26T10:00:00.000Z");
    const statuses = await Promise.all(
      Array.from({ length: 25 }, (_, i) => Promise.resolve(trial(`https://fresh${i}.example/new`, "198.51.100.77")).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
  });

  it("caches answers 300 s per URL", async () => {
    ctx.clock.set("2026-11-24T10:00:00.000Z");
    const a = await body(await trial("https://weather.example/v1/forecast", "192.0.2.250"));
    ctx.clock.advance(299_000);
    const b = await body(await trial("https://weather.example/v1/forecast", "192.0.2.250"));
    expect(b.observed_at).toBe(a.observed_at);
    ctx.clock.advance(2_000);
    const c = await body(await trial("https://weather.example/v1/forecast", "192.0.2.250"));
    expect(c.observed_at).not.toBe(a.observed_at);
  });

  it("wants exactly one http(s) url", async () => {
    for (const payload of ['{"url":"ftp://x"}', "{}", '{"urls":["https://a.example"]}']) {
      const res = await app.request("/api/v1/preflight-trial", { method: "POST", headers: { "content-type": "application/json" }, body: payload });
      expect(res.status).toBe(400);
    }
  });
});
