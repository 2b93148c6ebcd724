import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createTcpServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/http/app.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { normalizeUrl } from "../../src/lib/url-normalize.js";
import { PROBE_BODY_CAP_BYTES } from "../../src/services/probes/constants.js";
import { LIVE_PROBE } from "../../src/services/signals/constants.js";
import { startProber } from "../helpers/start-prober.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { insertListings, paymentRequiredHeader, v2Challenge } from "../probes/helpers.js";

/**
 * Issue 9, faults: probe targets that send an endless body, never answer, or answer with
 * gigantic (or endless) headers cost the prober bounded time and memory, and cannot starve the
 * healthy targets probed in the same cycle. The same holds for the live probe an unknown URL
 * gets on the request path. A large challenge is no fault (issue 37): a 100 KiB PAYMENT-REQUIRED
 * reads as a healthy challenge in a probe, a host check and a live probe; 200 KiB is refused.
 */

// Room for a 402 read beside ten endless senders on a loaded 2-core CI machine (1.5 s flaked there).
const TIMEOUT_MS = 3_000;
const HOSTS = 5;
let ctx: TestContext;
const servers: Array<{ url: string; close(): void }> = [];
/** Bytes each hostile connection managed to push at us before we let go of it. */
const pushed: number[] = [];
const sockets = new Set<Socket>();

/**
 * A v2 PAYMENT-REQUIRED header of at least `bytes`, as a large provider sends it: forty accepts
 * on other chains before the listing's own (0.012345 USDC), and a Bazaar extension whose input
 * and output schemas fill the rest.
 */
function largeChallengeHeader(bytes: number): string {
  const others = Array.from({ length: 40 }, (_, i) => ({
    scheme: "exact",
    network: `eip155:${1000 + i}`,
    amount: String(1000 + i),
    asset: `0x${(i + 1).toString(16).padStart(40, "0")}`,
    payTo: `0x${"2".repeat(40)}`,
    maxTimeoutSeconds: 60,
    extra: { name: "USD Coin", version: "2" },
  }));
  const properties: Record<string, object> = {};
  const header = () =>
    paymentRequiredHeader({
      ...v2Challenge("12345", others),
      extensions: { bazaar: { info: { input: { type: "http", method: "GET" }, output: { type: "json" } }, schema: { type: "object", properties } } },
    });
  for (let i = 0; header().length < bytes; i += 10) {
    for (let j = i; j < i + 10; j++) properties[`field_${j}`] = { type: "string", description: `the ${j}th field `.repeat(12) };
  }
  return header();
}
const LARGE_402 = largeChallengeHeader(100 * 1024);
const OVERSIZED_402 = largeChallengeHeader(200 * 1024);

/** One loopback "provider" whose paths each misbehave in one way. */
async function hostileHttp(): Promise<string> {
  const chunk = Buffer.alloc(64 * 1024, "x");
  const server: Server = createHttpServer((req, res) => {
    req.resume();
    const s = res.socket!;
    sockets.add(s);
    s.once("close", () => pushed.push(s.bytesWritten));
    const path = req.url ?? "/";
    const pump = () => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once("drain", pump);
    };
    res.on("error", () => undefined);
    if (path === "/ok") return void res.writeHead(200, { "content-type": "application/json" }).end("{}");
    if (path === "/endless") return void (res.writeHead(200, { "content-type": "application/json" }), pump());
    if (path === "/endless-402") return void (res.writeHead(402, { "payment-required": paymentRequiredHeader(v2Challenge("7")) }), pump());
    if (path === "/drip") {
      res.writeHead(200);
      const t = setInterval(() => (res.destroyed ? clearInterval(t) : res.write("x")), 50);
      return;
    }
    if (path === "/silent") return; // accepts, reads the request, never answers
    if (path === "/headers-then-nothing") return void (res.writeHead(200, { "content-length": "1000000" }), res.flushHeaders());
    if (path === "/huge-headers") return void res.writeHead(200, { "x-filler": "y".repeat(1024 * 1024) }).end();
    if (path === "/large-402") return void res.writeHead(402, { "payment-required": LARGE_402 }).end("{}");
    if (path === "/oversized-402") return void res.writeHead(402, { "payment-required": OVERSIZED_402 }).end("{}");
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => (server.closeAllConnections(), server.close()) });
  return servers.at(-1)!.url;
}

/** A "server" that starts an HTTP answer and then sends header lines forever. */
async function endlessHeaders(): Promise<string> {
  const server = createTcpServer((s) => {
    sockets.add(s);
    s.on("error", () => undefined);
    s.once("close", () => pushed.push(s.bytesWritten));
    s.once("data", () => {
      s.write("HTTP/1.1 200 OK\r\n");
      const line = `x-more: ${"z".repeat(1000)}\r\n`;
      const pump = () => {
        while (!s.destroyed && s.write(line));
        if (!s.destroyed) s.once("drain", pump);
      };
      pump();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() });
  return servers.at(-1)!.url;
}

/** A host that answers every path, random ones too, with the large challenge: a wildcard to its host check. */
async function largeWildcard(): Promise<string> {
  const server = createHttpServer((req, res) => void (req.resume(), res.writeHead(402, { "payment-required": LARGE_402 }).end("{}")));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => (server.closeAllConnections(), server.close()) });
  return servers.at(-1)!.url;
}

const LARGE_PATHS = ["/large-402", "/oversized-402"];
const HOSTILE_PATHS = ["/endless", "/endless-402", "/drip", "/silent", "/headers-then-nothing", "/huge-headers"];

beforeAll(async () => {
  ctx = await createTestContext({ ALLOW_PRIVATE_TARGETS: "true" });
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  for (const s of servers) s.close();
  await ctx?.close();
});

describe("hostile probe targets", () => {
  it("cost bounded time and memory in a probe cycle, and the healthy targets are still probed", async () => {
    const urls: string[] = [];
    for (let h = 0; h < HOSTS; h++) {
      const base = await hostileHttp();
      urls.push(...[...HOSTILE_PATHS, ...LARGE_PATHS].map((p) => base + p), `${base}/ok`);
      urls.push(`${await endlessHeaders()}/any`);
    }
    const wildcard = await largeWildcard();
    urls.push(`${wildcard}/listed`);
    const ids = await insertListings(
      ctx.db.db,
      urls.map((url) => ({ url })),
    );
    const prober = startProber(ctx, { tickMs: 3_600_000, runAtStart: false, timeoutMs: TIMEOUT_MS, intervalSeconds: 600 });

    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const started = performance.now();
    const summary = await prober.runNow();
    const took = performance.now() - started;
    clearInterval(sampler);
    await prober.stop();

    expect(summary).toMatchObject({ due: urls.length, done: urls.length });
    // Per host: 7 listings and 2 host-check paths, 4 at a time, each at most the time-out.
    expect(took).toBeLessThan(4 * TIMEOUT_MS + 5_000);
    // Each endless sender got to push the body cap plus what socket buffers hold, no more.
    expect(Math.max(...pushed)).toBeLessThan(PROBE_BODY_CAP_BYTES + 8 * 1024 * 1024);
    // Ten endless senders on loopback would push gigabytes into an unbounded reader.
    expect(peak - baseline).toBeLessThan(200 * 1024 * 1024);

    const probes = await ctx.db.db
      .selectFrom("probes")
      .innerJoin("listings", "listings.id", "probes.listing_id")
      .leftJoin("quote_terms", "quote_terms.digest", "probes.quote_digest")
      .select(["listings.url", "probes.outcome", "probes.status_code", "probes.error_kind", "probes.price_usdc", "probes.challenge_version"])
      .select(["quote_terms.pay_to", "quote_terms.amount"])
      .where("probes.listing_id", "in", ids)
      .execute();
    expect(probes).toHaveLength(urls.length);
    const of = (suffix: string) => probes.filter((p) => p.url.endsWith(suffix));
    for (const p of of("/ok")) expect(p).toMatchObject({ outcome: "healthy", status_code: 200 });
    for (const p of of("/endless")) expect(p).toMatchObject({ outcome: "healthy", status_code: 200 });
    for (const p of of("/endless-402")) expect(p).toMatchObject({ outcome: "healthy", status_code: 402, price_usdc: "0.000007" });
    for (const p of of("/silent")) expect(p).toMatchObject({ outcome: "error", error_kind: "timeout" });
    for (const p of of("/huge-headers")) expect(p).toMatchObject({ outcome: "error", error_kind: "protocol" });
    for (const p of of("/any")) expect(p).toMatchObject({ outcome: "error", error_kind: "protocol" });
    // A 100 KiB challenge is a healthy one with its terms; 200 KiB is refused as any oversized header block.
    const terms = { outcome: "healthy", status_code: 402, price_usdc: "0.012345", challenge_version: 2, pay_to: `0x${"1".repeat(40)}` };
    for (const p of [...of("/large-402"), ...of("/listed")]) expect({ ...p, amount: String(p.amount) }).toMatchObject({ ...terms, amount: "12345" });
    for (const p of of("/oversized-402")) expect(p).toMatchObject({ outcome: "error", status_code: null, error_kind: "protocol" });
    const check = await ctx.db.db.selectFrom("host_checks").selectAll().where("host", "=", new URL(wildcard).host).executeTakeFirstOrThrow();
    expect(check).toMatchObject({ wildcard_402_detected: true, last_error: null });
  }, 60_000);

  it("cost a live probe on the request path no more than its budget", async () => {
    const base = await hostileHttp();
    const app = createApp({ ctx: { ...ctx, metrics: new Registry() }, routes: productRoutes });
    for (const path of ["/silent", "/endless", "/drip", "/huge-headers"]) {
      const started = performance.now();
      const res = await app.request("/api/v1/preflight-trial", {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.9" },
        body: JSON.stringify({ url: `${base}${path}` }),
      });
      expect(performance.now() - started, path).toBeLessThan(LIVE_PROBE.budgetMs + 2_000);
      expect(res.status, path).toBe(200);
      expect(((await res.json()) as { warnings: string[] }).warnings, path).toContain("unknown_endpoint");
    }
    // The live probe reads a 100 KiB challenge as the scheduled one does, and refuses 200 KiB.
    const large = await hostileHttp();
    const observed = async (path: string) => {
      const url = `${large}${path}`;
      // Another host (trial calls are counted per host) in a fresh minute (the live-probe budget is per address).
      ctx.clock.set(new Date(ctx.clock.now().getTime() + 60_000));
      const res = await app.request("/api/v1/preflight-trial", {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.9" },
        body: JSON.stringify({ url }),
      });
      expect(res.status, path).toBe(200);
      const row = await ctx.db.db.selectFrom("live_probe_cache").select("result").where("url_normalized", "=", normalizeUrl(url)).executeTakeFirstOrThrow();
      return (typeof row.result === "string" ? JSON.parse(row.result) : row.result) as Record<string, unknown>;
    };
    expect(await observed("/large-402")).toMatchObject({ outcome: "healthy", statusCode: 402, challengeVersion: 2, quote: { amount: "1000" } });
    expect(await observed("/oversized-402")).toMatchObject({ outcome: "error", statusCode: null, errorKind: "protocol" });
  }, 30_000);
});
