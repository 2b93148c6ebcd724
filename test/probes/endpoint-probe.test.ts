import { createServer } from "node:net";
import { brotliCompressSync, gzipSync } from "node:zlib";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HostLimiter } from "../../src/lib/host-limiter.js";
import { createGuardedDispatcher } from "../../src/lib/ssrf-guard.js";
import { probeEndpoint, type EndpointJob } from "../../src/services/probes/endpoint-probe.js";
import { PROBE_PROFILES } from "../../src/services/probes/profiles.js";
import { createHttpClient } from "../../src/services/probes/http-client.js";
import { NO_CHALLENGE } from "../../src/services/probes/types.js";
import { paymentRequiredHeader, send402, startServer, testHttpClient, USDC_BASE_SEPOLIA, v1Challenge, v2Challenge, type TestServer } from "./helpers.js";

const at = new Date("2026-11-20T12:00:00Z");
const seen: Array<{ path: string; method: string; headers: Record<string, unknown>; body: string }> = [];
let server: TestServer;
let client: ReturnType<typeof testHttpClient>;

// 64 MiB of zeros, a few dozen KiB on the wire: read only up to the cap. Compressed once, not in
// the handler, where it held the loaded test process past the probe's 1 s budget.
const GZIP_BOMB = gzipSync(Buffer.alloc(64 * 1024 * 1024));

function job(path: string, extra: Partial<EndpointJob> = {}): EndpointJob {
  const url = server.url + path;
  return { listingId: 1, url, method: "POST", host: new URL(url).host, network: "eip155:84532", asset: USDC_BASE_SEPOLIA, ...extra };
}

beforeAll(async () => {
  server = await startServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const path = req.url ?? "/";
      seen.push({ path, method: req.method ?? "", headers: req.headers, body });
      switch (path) {
        case "/ok":
          return res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
        case "/created":
          return res.writeHead(201).end();
        case "/v2-header":
          return send402(res, { header: paymentRequiredHeader(v2Challenge("10000")) });
        case "/v1-body":
          return send402(res, { body: JSON.stringify(v1Challenge("2500000")) });
        case "/v1-body-gzip":
        case "/v1-body-br": {
          const raw = Buffer.from(JSON.stringify(v1Challenge("2500000")));
          const br = path.endsWith("br");
          return res
            .writeHead(402, { "content-type": "application/json", "content-encoding": br ? "br" : "gzip" })
            .end(br ? brotliCompressSync(raw) : gzipSync(raw));
        }
        case "/gzip-bomb":
          return res.writeHead(200, { "content-encoding": "gzip" }).end(GZIP_BOMB);
        case "/v2-body":
          return send402(res, { body: JSON.stringify(v2Challenge("1000000000")) });
        case "/no-challenge":
          return res.writeHead(402, { "content-type": "text/plain" }).end("Payment Required");
        case "/bad-header":
          return send402(res, { header: "%%% not base64 %%%" });
        case "/bad-header-good-body":
          return send402(res, { header: "bm90IGpzb24=", body: JSON.stringify(v1Challenge("5000")) });
        case "/empty-accepts":
          return send402(res, { body: JSON.stringify({ x402Version: 2, accepts: [] }) });
        case "/fractional-amount":
          return send402(res, { body: JSON.stringify({ x402Version: 2, accepts: [{ scheme: "exact", network: "eip155:84532", amount: "1.5" }] }) });
        case "/no-network":
          return send402(res, { body: JSON.stringify({ x402Version: 1, accepts: [{ scheme: "exact", maxAmountRequired: "100" }] }) });
        case "/accepts-not-array":
          return send402(res, { body: JSON.stringify({ x402Version: 2, accepts: { scheme: "exact" } }) });
        case "/truncated-json":
          return send402(res, { body: JSON.stringify(v2Challenge("10000")).slice(0, 40) });
        case "/multi": {
          const c = v2Challenge("10000", [
            { scheme: "upto", network: "eip155:84532", amount: "99", asset: USDC_BASE_SEPOLIA },
            { scheme: "exact", network: "eip155:8453", amount: "20000", asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" },
          ]);
          return send402(res, { header: paymentRequiredHeader(c) });
        }
        case "/not-found":
          return res.writeHead(404).end("nope");
        case "/teapot":
          return res.writeHead(418).end();
        case "/boom":
          return res.writeHead(503).end("down");
        case "/redirect":
          return res.writeHead(302, { location: "/ok" }).end();
        case "/slow-headers":
          return void setTimeout(() => res.writeHead(200).end(), 3_000);
        case "/latency-150":
          return void setTimeout(() => res.writeHead(200).end(), 150);
        case "/endless":
        case "/endless-402": {
          const headers: Record<string, string> = { "content-type": "application/json" };
          if (path === "/endless-402") headers["payment-required"] = paymentRequiredHeader(v2Challenge("7"));
          res.writeHead(path === "/endless" ? 200 : 402, headers);
          const chunk = Buffer.alloc(64 * 1024, "x");
          const pump = () => {
            while (!res.destroyed && res.write(chunk));
            if (!res.destroyed) res.once("drain", pump);
          };
          res.on("error", () => undefined);
          return pump();
        }
        case "/huge-headers":
          return res.writeHead(200, { "x-filler": "y".repeat(64 * 1024) }).end();
        case "/reset":
          return req.socket.destroy();
        default:
          return res.writeHead(404).end();
      }
    });
  });
  client = testHttpClient({ timeoutMs: 1_000, maxBodyBytes: 256 * 1024 });
});

afterAll(async () => {
  await client.close();
  await server.close();
});

const probe = (path: string, extra: Partial<EndpointJob> = {}) => probeEndpoint(job(path, extra), client.http, at);

describe("outcome classes", () => {
  it("2xx is healthy with its status and latency", async () => {
    const r = await probe("/ok");
    expect(r).toMatchObject({ listingId: 1, probedAt: at, outcome: "healthy", statusCode: 200, errorKind: null, priceUsdc: null });
    expect(r.latencyMs).toBeGreaterThanOrEqual(0);
    expect((await probe("/created")).outcome).toBe("healthy");
  });

  it("402 with a v2 PAYMENT-REQUIRED header is healthy and priced", async () => {
    expect(await probe("/v2-header")).toMatchObject({ outcome: "healthy", statusCode: 402, priceUsdc: "0.01", challengeVersion: 2 });
  });

  it("402 with a v1 body is healthy and priced from maxAmountRequired", async () => {
    expect(await probe("/v1-body")).toMatchObject({ outcome: "healthy", statusCode: 402, priceUsdc: "2.5", challengeVersion: 1 });
  });

  it("402 with a v2 body is healthy and priced from amount", async () => {
    expect(await probe("/v2-body")).toMatchObject({ outcome: "healthy", statusCode: 402, priceUsdc: "1000", challengeVersion: 2 });
  });

  it("402 without a readable challenge is an error", async () => {
    for (const path of ["/no-challenge", "/bad-header", "/empty-accepts", "/no-network", "/accepts-not-array", "/truncated-json"]) {
      const r = await probe(path);
      expect(r, path).toMatchObject({ outcome: "error", statusCode: 402, errorKind: NO_CHALLENGE, priceUsdc: null, challengeVersion: null });
    }
  });

  it("a 402 whose amount is not one canonical integer is answered, its quote marked malformed and priced at nothing", async () => {
    const r = await probe("/fractional-amount");
    // BigInt("1.5") throws: no client can sign it.
    expect(r).toMatchObject({ outcome: "healthy", statusCode: 402, priceUsdc: null, quote: { malformed: "amount_unsignable", amount: "0" } });
  });

  it("a malformed header falls back to a valid body", async () => {
    expect(await probe("/bad-header-good-body")).toMatchObject({ outcome: "healthy", priceUsdc: "0.005", challengeVersion: 1 });
  });

  it("other 4xx and 5xx are errors with their status", async () => {
    expect(await probe("/not-found")).toMatchObject({ outcome: "error", statusCode: 404, errorKind: null });
    expect(await probe("/teapot")).toMatchObject({ outcome: "error", statusCode: 418 });
    expect(await probe("/boom")).toMatchObject({ outcome: "error", statusCode: 503 });
  });

  it("redirects are not followed: the 3xx itself is the (error) result", async () => {
    const before = seen.filter((s) => s.path === "/ok").length;
    expect(await probe("/redirect")).toMatchObject({ outcome: "error", statusCode: 302 });
    expect(seen.filter((s) => s.path === "/ok").length).toBe(before);
  });

  it("latency is the time to response headers", async () => {
    const r = await probe("/latency-150");
    expect(r.latencyMs).toBeGreaterThanOrEqual(145);
    expect(r.latencyMs).toBeLessThan(1_000);
  });

  it("times out after the configured budget", async () => {
    const started = performance.now();
    expect(await probe("/slow-headers")).toMatchObject({ outcome: "error", statusCode: null, errorKind: "timeout", latencyMs: null });
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("reads an endless body only up to the cap", async () => {
    const started = performance.now();
    expect(await probe("/endless")).toMatchObject({ outcome: "healthy", statusCode: 200 });
    expect(await probe("/endless-402")).toMatchObject({ outcome: "healthy", statusCode: 402, priceUsdc: "0.000007" });
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it("decodes gzip and br bodies, as the profiles' accept-encoding invites, and caps decoded bytes", async () => {
    for (const path of ["/v1-body-gzip", "/v1-body-br"]) expect(await probe(path)).toMatchObject({ outcome: "healthy", priceUsdc: "2.5", challengeVersion: 1 });
    const started = performance.now();
    // A 200 without a challenge from an unpriced job: healthy (a priced listing's would be unchallenged).
    expect(await probe("/gzip-bomb")).toMatchObject({ outcome: "healthy", statusCode: 200 });
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it("gigantic headers are a protocol error", async () => {
    expect(await probe("/huge-headers")).toMatchObject({ outcome: "error", statusCode: null, errorKind: "protocol" });
  });

  it("a connection closed mid-request is a reset", async () => {
    expect(await probe("/reset")).toMatchObject({ outcome: "error", statusCode: null, errorKind: "reset" });
  });

  it("a closed port is refused", async () => {
    const tcp = createServer();
    await new Promise<void>((resolve) => tcp.listen(0, "127.0.0.1", resolve));
    const { port } = tcp.address() as AddressInfo;
    await new Promise((resolve) => tcp.close(resolve));
    const url = `http://127.0.0.1:${port}/x`;
    const r = await probeEndpoint({ ...job("/x"), url, host: `127.0.0.1:${port}` }, client.http, at);
    expect(r).toMatchObject({ outcome: "error", statusCode: null, errorKind: "refused", latencyMs: null });
  });

  it("TLS spoken to a plain HTTP port is a tls error", async () => {
    const url = server.url.replace("http:", "https:") + "/ok";
    const r = await probeEndpoint({ ...job("/ok"), url }, client.http, at);
    expect(r).toMatchObject({ outcome: "error", errorKind: "tls" });
  });

  it("a name that does not resolve is a dns error", async () => {
    const dispatcher = createGuardedDispatcher({
      allowPrivate: false,
      connectTimeoutMs: 1_000,
      lookup: (hostname, _o, cb) => cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }), []),
    });
    const limiter = new HostLimiter({ concurrency: 1, ratePerSecond: 10, burst: 10, globalConcurrency: 1 });
    const http = createHttpClient({ dispatcher, limiter, timeoutMs: 1_000, maxBodyBytes: 1024 });
    const url = "http://no-such-host.test/api";
    const r = await probeEndpoint({ ...job("/"), url, host: "no-such-host.test" }, http, at);
    expect(r).toMatchObject({ outcome: "error", errorKind: "dns" });
    await dispatcher.close();
  });
});

describe("the naked request", () => {
  it("POST sends the declared example (else {}) in the default profile, {} in httpx, no body in axios; GET sends no body; no payment header", async () => {
    const last = () => seen.filter((s) => s.path === "/ok").at(-1)!;
    await probe("/ok", { method: "POST" });
    const bare = last();
    expect(bare).toMatchObject({ method: "POST", body: "{}" });
    expect(bare.headers["content-type"]).toBe("application/json");
    await probe("/ok", { method: "POST", inputExample: '{"text":"hello"}' });
    const example = last();
    expect(example).toMatchObject({ method: "POST", body: '{"text":"hello"}' });
    expect(example.headers["content-type"]).toBe("application/json");
    await probeEndpoint(job("/ok", { method: "POST", inputExample: '{"text":"hello"}' }), client.http, at, "httpx");
    const other = last();
    expect(other).toMatchObject({ method: "POST", body: "{}" });
    expect(other.headers["content-type"]).toBe("application/json");
    await probeEndpoint(job("/ok", { method: "POST" }), client.http, at, "axios");
    const none = last();
    expect(none).toMatchObject({ method: "POST", body: "" });
    expect(none.headers).toMatchObject({ "content-type": "application/x-www-form-urlencoded", "content-length": "0" });
    await probe("/ok", { method: "GET" });
    const get = last();
    expect(get).toMatchObject({ method: "GET", body: "" });
    for (const s of [bare, example, other, none, get]) {
      expect(s.headers["x-payment"]).toBeUndefined();
      expect(s.headers["payment-signature"]).toBeUndefined();
      // An ordinary client's headers: nothing names the prober (decision 0020).
      expect(Object.values(PROBE_PROFILES).map((p) => p["user-agent"])).toContain(s.headers["user-agent"]);
      expect(JSON.stringify(s.headers)).not.toMatch(/lookout|prober/i);
    }
  });
});

describe("price selection", () => {
  it("takes the accept entry on the listing's network and asset", async () => {
    const r = await probe("/multi", { network: "eip155:8453", asset: "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913" });
    expect(r.priceUsdc).toBe("0.02");
    // On the listing's own network the `upto` entry listed first is passed over for `exact`.
    expect((await probe("/multi")).priceUsdc).toBe("0.01");
  });

  it("else the first exact entry", async () => {
    expect((await probe("/multi", { network: "solana:mainnet", asset: null })).priceUsdc).toBe("0.02");
    expect((await probe("/multi", { network: null, asset: null })).priceUsdc).toBe("0.02");
  });
});
