import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CONFIRM_INTERVAL_MS, CONFIRM_PROBES, endpointLeaseMs } from "../../src/services/probes/constants.js";
import { endpointStrategy } from "../../src/services/probes/endpoint-strategy.js";
import { probeMetrics } from "../../src/services/probes/metrics.js";
import { nextSlot } from "../../src/services/probes/slots.js";
import { startProber, type ProberHandle } from "../helpers/start-prober.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { insertListings, paymentRequiredHeader, send402, sleep, startServer, v2Challenge, type TestServer } from "./helpers.js";

const INTERVAL_MS = 600_000;
let ctx: TestContext;
let server: TestServer;
let prober: ProberHandle | undefined;
const logLines: Array<Record<string, unknown>> = [];
let slowStarted = 0;

beforeAll(async () => {
  ctx = await createTestContext({ ALLOW_PRIVATE_TARGETS: "true" });
  ctx.log = pino(
    { level: "info" },
    new Writable({
      write(chunk: Buffer, _enc, cb) {
        logLines.push(JSON.parse(chunk.toString()));
        cb();
      },
    }),
  );
  server = await startServer((req, res) => {
    const path = req.url ?? "/";
    req.resume();
    if (path.startsWith("/__lookout_probe_")) return void res.writeHead(404).end();
    if (path.startsWith("/paid")) return send402(res, { header: paymentRequiredHeader(v2Challenge("50000")) });
    if (path.startsWith("/broken")) return void res.writeHead(500).end();
    if (path.startsWith("/slow")) {
      slowStarted++;
      return void setTimeout(() => res.writeHead(200).end(), 300);
    }
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
});

afterEach(async () => {
  await prober?.stop();
  prober = undefined;
  await ctx.db.db.deleteFrom("probes").execute();
  await ctx.db.db.deleteFrom("probe_hourly").execute();
  await ctx.db.db.deleteFrom("signal_snapshots").execute();
  await ctx.db.db.deleteFrom("listings").execute();
  await ctx.db.db.deleteFrom("host_checks").execute();
});

afterAll(async () => {
  await server.close();
  await ctx.close();
});

const start = () => (prober = startProber(ctx, { tickMs: 3_600_000, runAtStart: false, intervalSeconds: INTERVAL_MS / 1000 }));

describe("a probe cycle", () => {
  it("stores every probe, confirms each new listing soon, rolls up and snapshots", async () => {
    const now = ctx.clock.now();
    const ids = await insertListings(ctx.db.db, [
      { url: `${server.url}/ok` },
      { url: `${server.url}/paid` },
      { url: `${server.url}/broken` },
      { url: `${server.url}/later`, nextProbeAt: new Date(now.getTime() + 60_000) },
      { url: `${server.url}/inactive`, isActive: false },
    ]);
    const summary = await start().runNow();
    expect(summary).toMatchObject({ due: 3, done: 3, errors: 1, snapshots: 3 });

    const probes = await ctx.db.db.selectFrom("probes").selectAll().orderBy("listing_id").execute();
    expect(probes.map((p) => [Number(p.listing_id), p.outcome, p.status_code, p.price_usdc])).toEqual([
      [ids[0], "healthy", 200, null],
      [ids[1], "healthy", 402, "0.05"],
      [ids[2], "error", 500, null],
    ]);
    expect(probes.every((p) => p.probed_at.getTime() === now.getTime())).toBe(true);

    const listings = await ctx.db.db.selectFrom("listings").select(["id", "next_probe_at", "lease_owner", "lease_until"]).orderBy("id").execute();
    // A first probe is confirmed soon (decision 0014), before the listing joins its slot.
    for (const l of listings.slice(0, 3)) {
      expect(l.next_probe_at.getTime()).toBe(now.getTime() + CONFIRM_INTERVAL_MS);
      expect(l.lease_owner).toBeNull();
      expect(l.lease_until).toBeNull();
    }
    expect(listings[3]!.next_probe_at.getTime()).toBe(now.getTime() + 60_000);

    const hourly = await ctx.db.db.selectFrom("probe_hourly").selectAll().orderBy("listing_id").execute();
    expect(hourly.map((h) => [h.probes, h.healthy, h.errors, h.status_counts])).toEqual([
      [1, 1, 0, { "200": 1 }],
      [1, 1, 0, { "402": 1 }],
      [1, 0, 1, { "500": 1 }],
    ]);
    const snaps = await ctx.db.db.selectFrom("signal_snapshots").selectAll().orderBy("listing_id").execute();
    expect(snaps.map((s) => [s.probes_1h, s.healthy_1h, s.errors_30m, s.last_status_code])).toEqual([
      [1, 1, 0, 200],
      [1, 1, 0, 402],
      [1, 0, 1, 500],
    ]);
    expect(snaps[1]!.detail).toMatchObject({ last_price_usdc: "0.05", last_challenge_version: 2 });

    const line = logLines.find((l) => l.cycle === "probe" && l.due === 3);
    expect(line).toMatchObject({ msg: "probe cycle", due: 3, done: 3, errors: 1 });
    expect(typeof line!.duration_ms).toBe("number");
    const metrics = await ctx.metrics.metrics();
    expect(metrics).toMatch(/lookout_probes_total\{outcome="healthy"\} 2/);
    expect(metrics).toMatch(/lookout_probes_total\{outcome="error"\} 1/);
    expect(metrics).toMatch(/lookout_probe_cycle_duration_seconds_count \d+/);
    expect(metrics).toMatch(/lookout_probe_duration_seconds_count\{outcome="healthy"\} 2/);
  });

  it("probes nothing until a settled listing's slot comes round, then exactly that listing", async () => {
    const [id] = await insertListings(ctx.db.db, [{ url: `${server.url}/ok` }]);
    const p = start();
    // Three agreeing probes settle a new listing: the first and two confirmations.
    for (let i = 0; i < CONFIRM_PROBES; i++) {
      if (i > 0) ctx.clock.set(new Date(ctx.clock.now().getTime() + CONFIRM_INTERVAL_MS));
      expect((await p.runNow()).done).toBe(1);
    }
    const slot = nextSlot(id!, ctx.clock.now(), INTERVAL_MS);
    ctx.clock.set(new Date(slot.getTime() - 1));
    expect((await p.runNow()).due).toBe(0);
    ctx.clock.set(slot);
    expect((await p.runNow()).done).toBe(1);
    const row = await ctx.db.db.selectFrom("listings").select("next_probe_at").where("id", "=", id!).executeTakeFirstOrThrow();
    // Same phase, one interval later.
    expect(row.next_probe_at.getTime()).toBe(slot.getTime() + INTERVAL_MS);
    ctx.clock.set("2026-11-20T12:00:00Z");
  });
});

describe("leases", () => {
  it("a crashed prober's claimed listings are taken over once its lease (one interval) expires", async () => {
    await insertListings(ctx.db.db, [{ url: `${server.url}/ok` }, { url: `${server.url}/paid` }]);
    const crashed = endpointStrategy(INTERVAL_MS, probeMetrics(ctx.metrics));
    const claimed = await crashed.claim(ctx.db.db, { owner: "crashed", now: ctx.clock.now(), limit: 10, excludeHosts: [], perHost: 10 });
    expect(claimed).toHaveLength(2);

    const p = start();
    expect((await p.runNow()).due).toBe(0);
    ctx.clock.advance(endpointLeaseMs(INTERVAL_MS) - 1000);
    expect((await p.runNow()).due).toBe(0);
    ctx.clock.advance(1001);
    expect(await p.runNow()).toMatchObject({ due: 2, done: 2 });
    const rows = await ctx.db.db.selectFrom("listings").select(["lease_owner", "next_probe_at"]).execute();
    expect(rows.every((r) => r.lease_owner === null && r.next_probe_at > ctx.clock.now())).toBe(true);

    // The crashed process coming back late cannot move the schedule it no longer owns.
    const before = rows.map((r) => r.next_probe_at.getTime()).sort();
    const late = claimed.map((job) => ({
      job,
      result: {
        listingId: job.listingId,
        probedAt: ctx.clock.now(),
        outcome: "healthy" as const,
        statusCode: 200,
        errorKind: null,
        latencyMs: 1,
        priceUsdc: null,
        challengeVersion: null,
        quote: null,
        profile: "fetch" as const,
      },
    }));
    await crashed.record(ctx.db.db, "crashed", late, new Date(ctx.clock.now().getTime() + 5 * INTERVAL_MS));
    const after = (await ctx.db.db.selectFrom("listings").select("next_probe_at").execute()).map((r) => r.next_probe_at.getTime()).sort();
    expect(after).toEqual(before);
    ctx.clock.set("2026-11-20T12:00:00Z");
  });

  it("stop() lets requests in flight finish and be stored, and hands queued work back", async () => {
    const seeds = Array.from({ length: 12 }, (_, i) => ({ url: `${server.url}/slow/${i}` }));
    await insertListings(ctx.db.db, seeds);
    const p = startProber(ctx, { tickMs: 3_600_000, intervalSeconds: 600, limits: { concurrency: 2, ratePerSecond: 1_000, burst: 1_000 } });
    // Both slots of the concurrency limit fill at once; wait for that rather than a fixed time.
    for (let waited = 0; slowStarted < 2 && waited < 5000; waited += 10) await sleep(10);
    const inFlight = slowStarted;
    expect(inFlight).toBeGreaterThan(0);
    expect(inFlight).toBeLessThanOrEqual(2);
    await p.stop();
    const stored = await ctx.db.db.selectFrom("probes").select("listing_id").execute();
    expect(stored).toHaveLength(inFlight);
    // Work handed back unrun is due again at once, for this or another process.
    const rows = await ctx.db.db.selectFrom("listings").select(["id", "lease_owner", "next_probe_at"]).execute();
    expect(rows.every((r) => r.lease_owner === null)).toBe(true);
    const probed = new Set(stored.map((p) => Number(p.listing_id)));
    const handedBack = rows.filter((r) => !probed.has(Number(r.id)));
    expect(handedBack).toHaveLength(12 - inFlight);
    expect(handedBack.every((r) => r.next_probe_at.getTime() <= ctx.clock.now().getTime())).toBe(true);
  });
});

describe("private targets", () => {
  it("are refused unless allowed, even behind a name that resolves to loopback", async () => {
    const port = new URL(server.url).port;
    await insertListings(ctx.db.db, [{ url: `http://localhost:${port}/ok` }, { url: `http://127.0.0.1:${port}/ok` }]);
    prober = startProber(ctx, { tickMs: 3_600_000, runAtStart: false, allowPrivate: false });
    // Refused is its own outcome, not an error (decision 0037; test/probes/refused-targets.test.ts).
    expect(await prober.runNow()).toMatchObject({ due: 2, done: 2, errors: 0 });
    const probes = await ctx.db.db.selectFrom("probes").select(["outcome", "error_kind", "status_code"]).execute();
    expect(probes).toEqual([
      { outcome: "blocked", error_kind: "ssrf_blocked", status_code: null },
      { outcome: "blocked", error_kind: "ssrf_blocked", status_code: null },
    ]);
  });
});
