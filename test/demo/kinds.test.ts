import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { body } from "../helpers/http.js";
import { flapIsDown } from "../../src/demo/index.js";
import { byKind, challengeOf, naked, nakedEndpoint, one, readCatalog, startFleetOnDevnet, type FleetOnDevnet } from "./helpers.js";

const SLOW_MS = 400;
const FLAP_MS = 500;
const DAY_MS = 86_400_000;

let env: FleetOnDevnet;

beforeAll(async () => {
  env = await startFleetOnDevnet({ slowMs: SLOW_MS, flapPeriodMs: FLAP_MS });
});

afterAll(async () => {
  await env?.stop();
});

const randomPath = () => `/${randomUUID().slice(0, 8)}/${randomUUID().slice(0, 6)}`;
const hostOf = (url: string) => new URL(url).host;

describe("healthy, ghost and never-paid endpoints", () => {
  it("answer a naked request with a real x402 challenge naming their price", async () => {
    const endpoints = [...byKind(env.fleet, "healthy"), one(env.fleet, "ghost"), one(env.fleet, "never_paid")];
    for (const e of endpoints) {
      const res = await nakedEndpoint(e);
      expect(res.status, e.url).toBe(402);
      const challenge = challengeOf(res);
      expect(challenge.x402Version).toBe(2);
      expect(challenge.resource.url).toBe(e.url);
      expect(challenge.accepts[0]).toMatchObject({ scheme: "exact", amount: e.amount, payTo: e.payTo, asset: env.devnet.usdcAddress });
    }
  });

  it("carry quality data: ghost unused for 30 days, never-paid never called, the rest in use", () => {
    const now = Date.now();
    const ghost = one(env.fleet, "ghost").quality;
    expect(ghost).toMatchObject({ l30DaysTotalCalls: 0, l30DaysUniquePayers: 0 });
    expect(now - Date.parse(ghost.lastCalledAt!)).toBeGreaterThan(30 * DAY_MS);
    expect(one(env.fleet, "never_paid").quality).toEqual({ l30DaysTotalCalls: 0, l30DaysUniquePayers: 0 });
    for (const e of byKind(env.fleet, "healthy")) {
      expect(e.quality.l30DaysTotalCalls).toBeGreaterThanOrEqual(e.quality.l30DaysUniquePayers);
      expect(e.quality.l30DaysUniquePayers).toBeGreaterThan(0);
      expect(now - Date.parse(e.quality.lastCalledAt!)).toBeLessThan(30 * DAY_MS);
    }
  });

  it("leave only the never-paid service without a call older than a day (no new_provider elsewhere)", () => {
    const services = new Map<string, number>();
    for (const e of env.fleet.endpoints) {
      const age = e.quality.lastCalledAt ? Date.now() - Date.parse(e.quality.lastCalledAt) : 0;
      services.set(e.serviceName, Math.max(services.get(e.serviceName) ?? 0, age));
    }
    const young = [...services].filter(([, age]) => age < DAY_MS).map(([name]) => name);
    expect(young).toEqual([one(env.fleet, "never_paid").serviceName]);
  });
});

describe("dead and zombie endpoints", () => {
  it("dead: one always answers 5xx, one is listed on a port that refuses connections", async () => {
    expect((await nakedEndpoint(one(env.fleet, "dead_5xx"))).status).toBe(500);
    const refused = one(env.fleet, "dead_refused");
    const error = await nakedEndpoint(refused).then(
      () => null,
      (err: Error) => err,
    );
    expect((error?.cause as NodeJS.ErrnoException | undefined)?.code).toBe("ECONNREFUSED");
    for (const e of [one(env.fleet, "dead_5xx"), refused]) {
      const siblings = env.fleet.endpoints.filter((s) => s.serviceName === e.serviceName && s.kind === "healthy");
      expect(siblings.length, `${e.serviceName} keeps healthy endpoints, so it is dead, not zombie`).toBeGreaterThan(0);
    }
  });

  it("zombie: every endpoint of one service errors, on its own host", async () => {
    const zombies = byKind(env.fleet, "zombie");
    expect(zombies.length).toBeGreaterThanOrEqual(3);
    const service = zombies[0]!.serviceName;
    expect(env.fleet.endpoints.filter((e) => e.serviceName === service)).toEqual(zombies);
    expect(new Set(zombies.map((z) => hostOf(z.url)))).toEqual(new Set([hostOf(env.fleet.hosts.zombie)]));
    for (const z of zombies) expect((await nakedEndpoint(z)).status).toBeGreaterThanOrEqual(500);
  });
});

describe("price traps", () => {
  it("a decoy at >= 1000 USDC and a suspicious price in 10..1000 USDC, both really challenging", async () => {
    const decoy = one(env.fleet, "decoy");
    const suspicious = one(env.fleet, "suspicious_price");
    expect(BigInt(decoy.amount)).toBeGreaterThanOrEqual(1_000_000_000n);
    expect(BigInt(suspicious.amount)).toBeGreaterThanOrEqual(10_000_000n);
    expect(BigInt(suspicious.amount)).toBeLessThan(1_000_000_000n);
    for (const e of [decoy, suspicious]) expect(challengeOf(await nakedEndpoint(e)).accepts[0]!.amount).toBe(e.amount);
  });
});

describe("slow and flapping endpoints", () => {
  it("slow: headers arrive after slowMs, while its neighbours answer at once", async () => {
    const timed = async (url: string, method: string) => {
      const started = performance.now();
      const res = await naked(url, method);
      return { status: res.status, ms: performance.now() - started };
    };
    const slow = one(env.fleet, "slow");
    const fast = byKind(env.fleet, "healthy")[0]!;
    const s = await timed(slow.url, slow.method);
    const f = await timed(fast.url, fast.method);
    expect(s.status).toBe(402);
    expect(s.ms).toBeGreaterThanOrEqual(SLOW_MS - 5);
    expect(f.ms).toBeLessThan(SLOW_MS);
  });

  it("flapping: alternates between a challenge and 503 with the wall-clock period", async () => {
    const flapping = one(env.fleet, "flapping");
    const seen = new Map<number, boolean>();
    const deadline = Date.now() + 5_000;
    for (let i = 0; i < 200 && Date.now() < deadline && seen.size < 2; i++) {
      const downBefore = flapIsDown(FLAP_MS);
      const res = await nakedEndpoint(flapping);
      const downAfter = flapIsDown(FLAP_MS);
      // Only a probe that did not straddle a phase change says which phase it saw.
      if (downBefore === downAfter) {
        expect(res.status).toBe(downBefore ? 503 : 402);
        seen.set(res.status, true);
      }
      await new Promise((r) => setTimeout(r, 40));
    }
    expect([...seen.keys()].sort()).toEqual([402, 503]);
  });
});

describe("wildcard-402 host", () => {
  it("answers a real challenge on any path and method", async () => {
    const { wildcard } = env.fleet.hosts;
    for (const [path, method] of [
      [randomPath(), "GET"],
      [randomPath(), "POST"],
      ["/.well-known/x402", "GET"],
    ] as const) {
      const res = await naked(`${wildcard}${path}`, method);
      expect(res.status, path).toBe(402);
      expect(challengeOf(res).accepts[0]!.amount).toBe(one(env.fleet, "wildcard_402").amount);
    }
  });

  it("serves a sitemap of its real resources, fewer than it has listed", async () => {
    const res = await fetch(`${env.fleet.hosts.wildcard}/sitemap.xml`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/xml");
    const locs = [...(await res.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    const listed = byKind(env.fleet, "wildcard_402").map((e) => e.url);
    expect(locs).toHaveLength(3);
    for (const loc of locs) expect(listed).toContain(loc);
    expect(listed.length).toBeGreaterThan(locs.length);
  });
});

describe("SPA-fallback host", () => {
  it("answers 200 text/html on any path, listed paid routes included", async () => {
    const { spa } = env.fleet.hosts;
    const listed = byKind(env.fleet, "spa_fallback");
    for (const [url, method] of [[`${spa}${randomPath()}`, "GET"], [`${spa}${randomPath()}`, "POST"], ...listed.map((e) => [e.url, e.method])]) {
      const res = await naked(url!, method);
      expect(res.status, url).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/html");
      expect(await res.text()).toContain('<div id="root">');
    }
  });

  it("publishes an x402 manifest of fewer resources than it has listed, and no sitemap", async () => {
    const manifest = await body(await fetch(`${env.fleet.hosts.spa}/.well-known/x402`));
    const listed = byKind(env.fleet, "spa_fallback").map((e) => e.url);
    expect(manifest.version).toBe(1);
    expect(manifest.resources).toHaveLength(2);
    for (const r of manifest.resources) expect(listed).toContain(r);
    expect(listed.length).toBeGreaterThan(manifest.resources.length);
    expect((await fetch(`${env.fleet.hosts.spa}/sitemap.xml`)).headers.get("content-type")).toContain("text/html");
  });
});

describe("proxy reseller", () => {
  it("wraps another listed origin at >= 3x its price, under its own provider", async () => {
    const { items } = await readCatalog(env.fleet.catalogUrl, 1000);
    const resold = byKind(env.fleet, "proxy_reseller");
    expect(resold.length).toBeGreaterThanOrEqual(2);
    for (const r of resold) {
      const upstream = env.fleet.endpoints.find((e) => e.url === r.upstreamUrl)!;
      expect(items.map((i) => i.resource)).toContain(upstream.url);
      expect(new URL(r.url).pathname).toContain(`/${hostOf(upstream.url)}${new URL(upstream.url).pathname}`);
      expect(BigInt(r.amount)).toBeGreaterThanOrEqual(3n * BigInt(upstream.amount));
      expect(r.payTo).not.toBe(upstream.payTo);
      expect(challengeOf(await nakedEndpoint(r)).accepts[0]).toMatchObject({ amount: r.amount, payTo: r.payTo });
    }
  });

  it("is not an open proxy: paths it does not resell are 404", async () => {
    const res = await naked(`${env.fleet.hosts.reseller}/resell/${hostOf(env.fleet.hosts.spa)}/api/v1/generate`);
    expect(res.status).toBe(404);
  });
});
