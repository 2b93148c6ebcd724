import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productRoutes } from "../../src/http/routes/index.js";
import { DAY, HOUR, MINUTE } from "../../src/services/signals/constants.js";
import { recompute, seedListing, seedProbes, series } from "../helpers/catalog-fixtures.js";
import { body, refusedInput } from "../helpers/http.js";
import { startPaidService, type PaidService } from "../helpers/paid-service.js";

let svc: PaidService;
const json = { "content-type": "application/json" };
const post = (path: string, payload: unknown, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { ...json, ...headers },
  body: JSON.stringify(payload),
});

beforeAll(async () => {
  svc = await startPaidService({ routes: productRoutes });
  // Wall-clock time: the devnet's authorizations are checked against real block time.
  svc.ctx.clock.set(new Date());
  const ctx = svc.ctx;
  const healthy = await seedListing(ctx, { url: "https://weather.example/v1/forecast", service: "Skycast", provider: "0xaaa", price: "0.002" });
  await seedProbes(
    ctx,
    healthy,
    series(7 * DAY, 10 * MINUTE, (i) => ({ latency: 100 + (i % 10) * 10, status: i % 50 === 0 ? 500 : 402, healthy: i % 50 !== 0 })),
  );
  const flaky = await seedListing(ctx, { url: "https://flaky.example/v1/x", service: "Flaky", provider: "0xbbb", price: "0.001" });
  await seedProbes(
    ctx,
    flaky,
    series(7 * DAY, HOUR, (i) => ({ healthy: i % 3 === 0, status: i % 3 === 0 ? 402 : 502, latency: 6000 })),
  );
  await recompute(ctx);
});
afterAll(() => svc?.close());

describe("paid reports through a real x402 client", () => {
  it("preflight: pays 0.001 and answers the report", async () => {
    const before = await svc.balanceOf(svc.payer(0));
    const res = await svc.payingFetch(0)(`${svc.url}/api/v1/preflight`, post("/", { url: "https://weather.example/v1/forecast" }));
    expect(res.status).toBe(200);
    expect((await body(res)).metadata.service).toBe("Skycast");
    expect(await svc.balanceOf(svc.payer(0))).toBe(before - 1000n);
  });

  it("preflight-batch: one 0.025 payment, duplicates removed, order kept", async () => {
    const urls = ["https://flaky.example/v1/x", "https://weather.example/v1/forecast", "https://WEATHER.example/v1/forecast#x", "https://flaky.example/v1/x"];
    const res = await svc.payingFetch(1)(`${svc.url}/api/v1/preflight-batch`, post("/", { urls }));
    expect(res.status).toBe(200);
    const env = await body(res);
    expect(env.results.map((r: { url: string }) => r.url)).toEqual(["https://flaky.example/v1/x", "https://weather.example/v1/forecast"]);
    expect(env.summary).toMatchObject({ total: 2, by_recommended_action: expect.any(Object) });
    // All four actions are keys, zeros included, and they add up to the total.
    expect(Object.keys(env.summary.by_recommended_action).sort()).toEqual(["investigate", "pay", "skip", "use_alternatives"]);
    expect(Object.values(env.summary.by_recommended_action as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(2);
    expect(env).toMatchObject({ paid_amount: "0.025", effective_price_per_url: "0.0125" });
    expect(env.results[1].metadata).toMatchObject({ established: true, has_free_trial: false });
    expect(env.results[0].observed_at).toBeUndefined();
    expect(env.results[0].evidence.proxy_markup).toBeUndefined();
  });

  it("preflight-batch: element errors, 413 above 50, and nothing asked for bad input", async () => {
    const bad = await refusedInput(`${svc.url}/api/v1/preflight-batch`, { urls: ["https://a.example", "nope"] });
    expect(bad.status).toBe(400);
    expect((await body(bad)).message).toBe("urls[1]: must be an absolute http or https URL");
    const many = Array.from({ length: 51 }, (_, i) => `https://h${i}.example/x`);
    const tooMany = await refusedInput(`${svc.url}/api/v1/preflight-batch`, { urls: many });
    expect(tooMany.status).toBe(413);
    expect((await refusedInput(`${svc.url}/api/v1/preflight-batch`, { urls: [] })).status).toBe(400);

    // The largest valid batch, 50 URLs of 2,048 characters, is not refused: its challenge names no problem.
    const longest = Array.from({ length: 50 }, (_, i) => `https://a.example/${String(i).padStart(2, "0")}${"x".repeat(2028)}`);
    expect(longest.every((u) => u.length === 2048)).toBe(true);
    const unpaid = await fetch(`${svc.url}/api/v1/preflight-batch`, post("/", { urls: longest }));
    expect(unpaid.status).toBe(402);
    expect((await body(unpaid)).error ?? "").not.toMatch(/payload_too_large|bad_request/);
  });

  it("forensics: 7 days of history, percentiles, status codes and forensics warnings", async () => {
    const res = await svc.payingFetch(2)(`${svc.url}/api/v1/forensics`, post("/", { url: "https://flaky.example/v1/x" }));
    expect(res.status).toBe(200);
    const f = await body(res);
    expect(f.uptime.hourly).toHaveLength(168);
    expect(f.uptime.hourly[0].bucket > f.uptime.hourly[1].bucket).toBe(true);
    expect(f.uptime.probes_7d).toBe(168);
    expect(f.uptime.uptime_7d_pct).toBe(33);
    expect(f.warnings).toEqual(expect.arrayContaining(["mostly_dead", "slow_p99"]));
    expect(f.status_codes).toEqual({ "402": 56, "502": 112 });
    expect(Math.abs(f.latency.p99_ms - 6000) / 6000).toBeLessThan(0.02);
    expect(f.decoy_probability).toBeGreaterThan(0);
    expect(f.concentration).toMatchObject({ raw_group_size: 1, raw_catalog_total: 2, concentration_pct: 50 });
  });

  it("preflight paid from a credit bundle, 20 concurrent calls spend exactly 20", async () => {
    const credit = await body(await svc.payingFetch(3)(`${svc.url}/api/v1/credits`, post("/", {})));
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`${svc.url}/api/v1/preflight`, post("/", { url: "https://weather.example/v1/forecast" }, { "x-credit-id": credit.creditId })),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const balances = results.map((r) => Number(r.headers.get("x-credit-balance"))).sort((a, b) => a - b);
    expect(balances).toEqual(Array.from({ length: 20 }, (_, i) => 980 + i));
    expect((await body(await fetch(`${svc.url}/api/v1/credits/${credit.creditId}`))).used).toBe(20);
  });

  it("a database failure answers 503 unsettled and charges nothing", async () => {
    const before = await svc.balanceOf(svc.payer(4));
    await svc.ctx.db.close();
    const res = await svc.payingFetch(4)(`${svc.url}/api/v1/preflight-batch`, post("/", { urls: ["https://weather.example/v1/forecast"] }));
    expect(res.status).toBe(503);
    expect(await body(res)).toMatchObject({ payment_settled: false, settlement_skipped: true, retry_after_seconds: 30 });
    expect(await svc.balanceOf(svc.payer(4))).toBe(before);
  });
});
