import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOST_CHECK_INTERVAL_MS, HOST_CHECK_RETRY_MS } from "../../src/services/probes/constants.js";
import { countManifestResources, countSitemapUrls } from "../../src/services/probes/effective-count.js";
import { startProber, type ProberHandle } from "../helpers/start-prober.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { insertListings, paymentRequiredHeader, send402, startServer, v2Challenge, type TestServer } from "./helpers.js";

const SHELL = "<!doctype html><html><body><div id=app></div></body></html>";
const html = (res: ServerResponse) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(SHELL);
const sitemap = (n: number) =>
  `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${Array.from({ length: n }, (_, i) => `<url><loc>https://x.test/${i}</loc></url>`).join("")}</urlset>`;

let ctx: TestContext;
let prober: ProberHandle;
const servers: Record<string, TestServer> = {};
const randomPaths: string[] = [];
let flaky = true;

beforeAll(async () => {
  ctx = await createTestContext({ ALLOW_PRIVATE_TARGETS: "true" });
  const track = (url: string | undefined) => {
    if (url?.startsWith("/__lookout_probe_")) randomPaths.push(url);
  };
  servers.wildcardSitemap = await startServer((req, res) => {
    track(req.url);
    if (req.url === "/sitemap.xml") return void res.writeHead(200, { "content-type": "application/xml" }).end(sitemap(3));
    send402(res, { header: paymentRequiredHeader(v2Challenge("1000")) });
  });
  servers.wildcardBare = await startServer((req, res) => {
    track(req.url);
    send402(res, { body: JSON.stringify(v2Challenge("1000")) });
  });
  servers.spaManifest = await startServer((req, res) => {
    track(req.url);
    if (req.url === "/.well-known/x402") return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ items: [1, 2, 3, 4, 5] }));
    html(res);
  });
  servers.clean = await startServer((req, res) => {
    track(req.url);
    if (req.url?.startsWith("/__lookout_probe_")) return void res.writeHead(404).end();
    send402(res, { header: paymentRequiredHeader(v2Challenge("1000")) });
  });
  servers.flaky = await startServer((req, res) => {
    track(req.url);
    if (flaky && req.url?.startsWith("/__lookout_probe_")) return void req.socket.destroy();
    send402(res, { header: paymentRequiredHeader(v2Challenge("1000")) });
  });
  for (const s of Object.values(servers)) await insertListings(ctx.db.db, [{ url: `${s.url}/api/a` }, { url: `${s.url}/api/b` }]);
  prober = startProber(ctx, { tickMs: 3_600_000, runAtStart: false });
});

afterAll(async () => {
  await prober.stop();
  for (const s of Object.values(servers)) await s.close();
  await ctx.close();
});

const row = (name: string) => ctx.db.db.selectFrom("host_checks").selectAll().where("host", "=", servers[name]!.host).executeTakeFirstOrThrow();

describe("host checks", () => {
  it("checks every host on first sight with two random paths", async () => {
    const summary = await prober.runNow();
    expect(summary.hostChecks).toEqual({ due: 5, done: 5, errors: 1 });
    expect(new Set(randomPaths).size).toBe(randomPaths.length);
    expect(randomPaths).toHaveLength(10);
    const at = ctx.clock.now().getTime();

    expect(await row("wildcardSitemap")).toMatchObject({
      wildcard_402_detected: true,
      spa_fallback_detected: false,
      effective_count: 3,
      effective_count_basis: "sitemap_url_count",
      sitemap_url_count: 3,
    });
    expect((await row("wildcardSitemap")).wildcard_402_checked_at?.getTime()).toBe(at);
    expect(await row("wildcardBare")).toMatchObject({ wildcard_402_detected: true, effective_count: 1, effective_count_basis: "canonical_homepage" });
    expect(await row("spaManifest")).toMatchObject({
      wildcard_402_detected: false,
      spa_fallback_detected: true,
      effective_count: 5,
      effective_count_basis: "manifest_resource_count",
      manifest_resource_count: 5,
    });
    const clean = await row("clean");
    expect(clean).toMatchObject({ wildcard_402_detected: false, spa_fallback_detected: false, effective_count: null, effective_count_basis: null });
    expect(clean.spa_fallback_checked_at?.getTime()).toBe(at);
    expect(clean.next_check_at.getTime()).toBe(at + HOST_CHECK_INTERVAL_MS);
    expect((clean.evidence as any).responses).toHaveLength(2);

    const flakyRow = await row("flaky");
    expect(flakyRow).toMatchObject({ wildcard_402_detected: false, wildcard_402_checked_at: null });
    expect(flakyRow.last_error).toMatch(/^reset/);
    expect(flakyRow.next_check_at.getTime()).toBe(at + HOST_CHECK_RETRY_MS);
    expect(await ctx.metrics.metrics()).toMatch(/lookout_host_checks_total\{result="wildcard_402"\} 2/);
  });

  it("retries an inconclusive host sooner and re-checks the others daily", async () => {
    flaky = false;
    ctx.clock.advance(HOST_CHECK_RETRY_MS);
    expect((await prober.runNow()).hostChecks.done).toBe(1);
    expect(await row("flaky")).toMatchObject({ wildcard_402_detected: true, last_error: null });

    ctx.clock.advance(HOST_CHECK_INTERVAL_MS - HOST_CHECK_RETRY_MS - 1);
    expect((await prober.runNow()).hostChecks.done).toBe(0);
    ctx.clock.advance(1);
    expect((await prober.runNow()).hostChecks.done).toBe(4);
    expect((await row("clean")).spa_fallback_checked_at?.getTime()).toBe(ctx.clock.now().getTime());
  });
});

describe("effective count parsers", () => {
  it("counts sitemap urls and manifest resources", () => {
    expect(countSitemapUrls(sitemap(4))).toBe(4);
    expect(countSitemapUrls(SHELL)).toBeNull();
    expect(countSitemapUrls("<urlset></urlset>")).toBe(0);
    expect(countManifestResources('{"resources":[{},{}]}')).toBe(2);
    expect(countManifestResources('{"items":[]}')).toBe(0);
    expect(countManifestResources("[1,2]")).toBeNull();
    expect(countManifestResources(SHELL)).toBeNull();
  });
});
