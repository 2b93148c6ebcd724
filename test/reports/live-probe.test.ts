import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { encodePaymentRequiredHeader } from "@x402/core/http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normalizeUrl } from "../../src/lib/url-normalize.js";
import { seedListing } from "../helpers/catalog-fixtures.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { freePort } from "../helpers/free-port.js";

/**
 * Live probes of URLs that are not active listings, against loopback servers: the retry that
 * makes an unreachable or failing URL dead, the method order, v1 and v2 challenges, what the
 * host checks know of the host, and the per-host budget counting every request.
 */
let ctx: TestContext;
const servers: Server[] = [];
const USDC = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";
const PAY_TO = "0x0000000000000000000000000000000000000001";

/**
 * A loopback server answering with `handle(request number, req, res)`; `seen` lists "METHOD /path"
 * in order. Each on a loopback address of its own (127.0.0.0/8): the live probe budget is per host
 * whatever the port, so servers sharing 127.0.0.1 would share it. `address` picks one.
 */
let nextAddress = 10;
async function serve(handle: (n: number, req: IncomingMessage, res: ServerResponse) => void, address = `127.0.0.${nextAddress++}`) {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    handle(seen.length, req, res);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, address, r));
  const base = `http://${address}:${(server.address() as AddressInfo).port}`;
  return { base, host: new URL(base).host, hostname: address, seen };
}

const v2Header = (amount: string) =>
  encodePaymentRequiredHeader({
    x402Version: 2,
    resource: { url: "x" },
    accepts: [{ scheme: "exact", network: "eip155:84532", asset: USDC, amount, payTo: PAY_TO, maxTimeoutSeconds: 300, extra: {} }],
  } as never);
const v1Body = (maxAmountRequired: string) =>
  JSON.stringify({
    x402Version: 1,
    error: "X-PAYMENT header is required",
    accepts: [{ scheme: "exact", network: "base-sepolia", maxAmountRequired, resource: "x", payTo: PAY_TO, maxTimeoutSeconds: 60, asset: USDC, extra: {} }],
  });
const challengeV2 = (res: ServerResponse, amount: string) =>
  res.writeHead(402, { "payment-required": v2Header(amount), "content-type": "text/html" }).end("<p>pay</p>");

const preflight = (url: string) => ctx.services.reports.preflight(url);
const hostBudgetUsed = async (host: string) =>
  (await ctx.db.db.selectFrom("host_rate_limits").select("count").where("host", "=", host).executeTakeFirst())?.count ?? 0;
const cached = async (url: string) =>
  (await ctx.db.db.selectFrom("live_probe_cache").select("result").where("url_normalized", "=", normalizeUrl(url)).executeTakeFirstOrThrow()).result as Record<
    string,
    unknown
  >;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  for (const s of servers) s.close();
  await ctx?.close();
});

describe("a live probe that cannot get an answer", () => {
  it("reads an always-500 URL as dead after one retry, both requests counted against the host", async () => {
    const t = await serve((_n, _req, res) => res.writeHead(500).end());
    const r = await preflight(`${t.base}/broken`);
    expect(r).toMatchObject({ ok: false, recommended_action: "investigate" });
    expect(r.warnings).toEqual(["unknown_endpoint", "dead"]);
    expect(t.seen).toEqual(["POST /broken", "POST /broken"]);
    expect(await hostBudgetUsed(t.hostname)).toBe(2);
    expect(await cached(`${t.base}/broken`)).toMatchObject({ outcome: "error", statusCode: 500, method: "POST", failedAttempts: 2 });
    // The cached observation keeps the streak: asked again, still dead, nothing sent.
    expect((await preflight(`${t.base}/broken`)).warnings).toContain("dead");
    expect(t.seen).toHaveLength(2);
  });

  it("reads a refused URL as dead", async () => {
    const url = `http://127.0.0.1:${await freePort()}/gone`;
    const r = await preflight(url);
    expect(r).toMatchObject({ ok: false, warnings: ["unknown_endpoint", "dead"] });
    expect(await cached(url)).toMatchObject({ statusCode: null, errorKind: "refused", failedAttempts: 2 });
  });

  it("gives a first attempt that hangs a retry within the 3 s budget", async () => {
    const t = await serve((n, _req, res) => (n === 1 ? undefined : challengeV2(res, "10000")));
    const started = performance.now();
    const r = await preflight(`${t.base}/cold`);
    expect(performance.now() - started).toBeLessThan(3_500);
    expect(r).toMatchObject({ ok: true, warnings: ["unknown_endpoint"], metadata: { price_usdc: "0.01" } });
    expect(t.seen).toEqual(["POST /cold", "POST /cold"]);
  });

  it("reads an endpoint that hangs past the budget twice as failing, not dead: it may only be slow", async () => {
    const t = await serve(() => undefined);
    const r = await preflight(`${t.base}/sluggish`);
    expect(t.seen).toEqual(["POST /sluggish", "POST /sluggish"]);
    expect(r).toMatchObject({ ok: true, recommended_action: "investigate", warnings: ["unknown_endpoint"], reason_codes: ["unknown_endpoint", "failing"] });
  });

  it("stops at the host's 6 requests per minute, retries included", async () => {
    const t = await serve((_n, _req, res) => res.writeHead(503).end());
    for (const path of ["/a", "/b", "/c"]) expect((await preflight(`${t.base}${path}`)).warnings).toContain("dead");
    const r = await preflight(`${t.base}/d`);
    expect(t.seen).toHaveLength(6);
    expect(r).toMatchObject({ ok: true, confidence: 0, warnings: ["unknown_endpoint"] });
  });
});

describe("the live probe budget", () => {
  it("is one per host across ports: six requests to two ports of one address spend it, a third port is not probed", async () => {
    const address = `127.0.0.${nextAddress++}`;
    const [a, b, c] = [
      await serve((_n, _req, res) => res.writeHead(503).end(), address),
      await serve((_n, _req, res) => res.writeHead(503).end(), address),
      await serve((_n, _req, res) => challengeV2(res, "10000"), address),
    ];
    for (const url of [`${a.base}/x`, `${a.base}/y`, `${b.base}/z`]) expect((await preflight(url)).warnings).toContain("dead");
    expect(await hostBudgetUsed(address)).toBe(6);
    const r = await preflight(`${c.base}/paid`);
    expect(c.seen).toEqual([]);
    expect(r).toMatchObject({ ok: true, confidence: 0, warnings: ["unknown_endpoint"] });
  });
});

describe("a live probe that gets an answer", () => {
  it("finds a GET-only endpoint whose first GET fails, and reads its v2 header challenge", async () => {
    const t = await serve((n, req, res) => {
      if (req.method !== "GET") return void res.writeHead(405, { allow: "GET" }).end();
      return n === 2 ? void res.writeHead(503).end() : challengeV2(res, "49000000");
    });
    const r = await preflight(`${t.base}/get-only`);
    expect(t.seen).toEqual(["POST /get-only", "GET /get-only", "GET /get-only"]);
    expect(r).toMatchObject({ recommended_action: "skip", warnings: ["unknown_endpoint", "suspicious_high_price"], metadata: { price_usdc: "49" } });
    expect(await cached(`${t.base}/get-only`)).toMatchObject({ outcome: "healthy", method: "GET", challengeVersion: 2, failedAttempts: 0 });
  });

  it("reads a v2 header challenge after a 5xx, priced from the amount in 10^-6 USDC", async () => {
    const t = await serve((n, req, res) =>
      req.method !== "POST" ? void res.writeHead(405).end() : n === 1 ? void res.writeHead(502).end() : challengeV2(res, "2500000"),
    );
    const r = await preflight(`${t.base}/flaky`);
    expect(t.seen).toEqual(["POST /flaky", "POST /flaky"]);
    expect(r).toMatchObject({ ok: true, warnings: ["unknown_endpoint"], metadata: { price_usdc: "2.5" }, evidence: { price_amount_usdc: "2.5" } });
  });

  it("tries an inactive listing's method first and reads a v1 body challenge", async () => {
    const t = await serve((_n, req, res) =>
      req.method === "GET" ? void res.writeHead(402, { "content-type": "application/json" }).end(v1Body("1500000")) : void res.writeHead(404).end(),
    );
    await seedListing(ctx, { url: `${t.base}/v1`, service: "Old Weather", method: "GET", price: "0.01", active: false });
    const r = await preflight(`${t.base}/v1`);
    expect(t.seen).toEqual(["GET /v1"]);
    expect(r).toMatchObject({ ok: true, warnings: ["unknown_endpoint"], metadata: { price_usdc: "1.5", is_active: false, service: "Old Weather" } });
    expect(await cached(`${t.base}/v1`)).toMatchObject({ challengeVersion: 1, method: "GET" });
  });

  it("reads a 404 as one failed attempt: failing and investigate, not dead and not pay", async () => {
    const t = await serve((_n, _req, res) => res.writeHead(404).end());
    const r = await preflight(`${t.base}/missing`);
    expect(t.seen).toEqual(["POST /missing", "GET /missing"]);
    expect(r).toMatchObject({ ok: true, warnings: ["unknown_endpoint"], reason_codes: ["unknown_endpoint", "failing"], recommended_action: "investigate" });
    // A listing that left the catalog is probed live too, not judged by its old evidence.
    await seedListing(ctx, { url: `${t.base}/delisted`, service: "Delisted", price: "0.01", active: false });
    expect((await preflight(`${t.base}/delisted`)).reason_codes).toEqual(["unknown_endpoint", "failing"]);
  });

  it("flags an unknown path on a host the host checks found answering 402 for any path", async () => {
    const t = await serve((_n, _req, res) => challengeV2(res, "10000"));
    await ctx.db.db.insertInto("host_checks").values({ host: t.host, wildcard_402_detected: true, wildcard_402_checked_at: ctx.clock.now() }).execute();
    const r = await preflight(`${t.base}/anything-at-all`);
    expect(r.warnings).toEqual(["unknown_endpoint", "wildcard_402"]);
    expect(r.metadata).toMatchObject({
      wildcard_402_detected: true,
      wildcard_402_checked_at: ctx.clock.now().toISOString(),
      effective_count_basis: "canonical_homepage",
    });
    const batch = await ctx.services.reports.batch([`${t.base}/x`, `${t.base}/y`]);
    expect(batch.results.map((e) => e.warnings)).toEqual([
      ["unknown_endpoint", "wildcard_402"],
      ["unknown_endpoint", "wildcard_402"],
    ]);
    expect((await ctx.services.reports.forensics(`${t.base}/z`)).concentration.wildcard_402_detected).toBe(true);
  });

  it("flags an unknown path on an SPA-fallback host", async () => {
    const t = await serve((_n, _req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<html></html>"));
    await ctx.db.db.insertInto("host_checks").values({ host: t.host, spa_fallback_detected: true, spa_fallback_checked_at: ctx.clock.now() }).execute();
    expect((await preflight(`${t.base}/app/route`)).warnings).toEqual(["unknown_endpoint", "spa_fallback"]);
  });
});

describe("the live probe cache", () => {
  it("still reads an observation cached before the retry existed", async () => {
    const url = "https://old-cache.example/api";
    const old = { probedAt: ctx.clock.now().toISOString(), outcome: "error", statusCode: 500, errorKind: null, latencyMs: 12, priceUsdc: null };
    const expires = new Date(ctx.clock.now().getTime() + 60_000);
    await ctx.db.db
      .insertInto("live_probe_cache")
      .values({ url_normalized: normalizeUrl(url), result: JSON.stringify(old), probed_at: ctx.clock.now(), expires_at: expires })
      .execute();
    expect(await preflight(url)).toMatchObject({ ok: true, warnings: ["unknown_endpoint"], reason_codes: ["unknown_endpoint", "failing"], confidence: 0.2 });
  });
});
