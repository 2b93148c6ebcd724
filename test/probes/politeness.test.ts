import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AcquireAbortedError, HostLimiter } from "../../src/lib/host-limiter.js";
import { PER_HOST_CONCURRENCY } from "../../src/services/probes/constants.js";
import { nextSlot, phaseMs } from "../../src/services/probes/slots.js";
import { startProber } from "../helpers/start-prober.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { insertListings, startServer, type TestServer } from "./helpers.js";

interface Tally {
  active: number;
  max: number;
  arrivals: Array<{ path: string; at: number }>;
}

let ctx: TestContext;
const tallies: Record<string, Tally> = {};
const servers: Record<string, TestServer> = {};

async function countingServer(name: string, delayMs: number) {
  const tally: Tally = { active: 0, max: 0, arrivals: [] };
  tallies[name] = tally;
  servers[name] = await startServer((req, res) => {
    req.resume();
    tally.active++;
    tally.max = Math.max(tally.max, tally.active);
    tally.arrivals.push({ path: req.url ?? "", at: performance.now() });
    setTimeout(() => {
      tally.active--;
      res.writeHead(200).end();
    }, delayMs);
  });
}

beforeAll(async () => {
  ctx = await createTestContext({ ALLOW_PRIVATE_TARGETS: "true" });
  await countingServer("big", 100);
  await countingServer("small", 100);
  await countingServer("rated", 0);
});
afterAll(async () => {
  for (const s of Object.values(servers)) await s.close();
  await ctx.close();
});

describe("per-host politeness in a real cycle", () => {
  it("never exceeds the per-host concurrency, and a big host does not starve a small one", async () => {
    // The big host's listings come first in schedule order.
    await insertListings(
      ctx.db.db,
      Array.from({ length: 60 }, (_, i) => ({ url: `${servers.big!.url}/e/${i}` })),
    );
    await insertListings(
      ctx.db.db,
      Array.from({ length: 5 }, (_, i) => ({ url: `${servers.small!.url}/e/${i}` })),
    );
    const prober = startProber(ctx, { tickMs: 3_600_000, runAtStart: false, limits: { ratePerSecond: 1_000, burst: 1_000 } });
    try {
      const summary = await prober.runNow();
      expect(summary).toMatchObject({ due: 65, done: 65, errors: 0 });
    } finally {
      await prober.stop();
    }
    expect(tallies.big!.max).toBe(PER_HOST_CONCURRENCY);
    expect(tallies.small!.max).toBeLessThanOrEqual(PER_HOST_CONCURRENCY);
    // 60 requests at 4 at a time take 15 rounds of 100 ms; the small host is done long before.
    const lastSmall = Math.max(...tallies.small!.arrivals.map((a) => a.at));
    const bigArrivals = tallies.big!.arrivals.map((a) => a.at).sort((x, y) => x - y);
    expect(lastSmall).toBeLessThan(bigArrivals[30]!);
  });

  it("spaces requests to one host by its rate", async () => {
    await ctx.db.db.deleteFrom("listings").where("host", "<>", servers.rated!.host).execute();
    await insertListings(
      ctx.db.db,
      Array.from({ length: 10 }, (_, i) => ({ url: `${servers.rated!.url}/e/${i}` })),
    );
    const prober = startProber(ctx, { tickMs: 3_600_000, runAtStart: false, limits: { ratePerSecond: 8, burst: 4 } });
    try {
      await prober.runNow();
    } finally {
      await prober.stop();
    }
    // 10 probes + 2 host-check requests: a burst of 4, then one per 125 ms. Arrival times carry
    // connection set-up jitter, so each window may hold one request more than the bucket allows.
    const at = tallies.rated!.arrivals.map((a) => a.at).sort((x, y) => x - y);
    expect(at).toHaveLength(12);
    expect(at[11]! - at[0]!).toBeGreaterThanOrEqual(7 * 125 - 30);
    for (let i = 0; i < at.length; i++) {
      for (let j = i; j < at.length; j++) expect(j - i + 1).toBeLessThanOrEqual(4 + Math.floor((8 * (at[j]! - at[i]!)) / 1000) + 1);
    }
  });
});

describe("HostLimiter", () => {
  it("caps requests in flight globally across hosts", async () => {
    const limiter = new HostLimiter({ concurrency: 4, ratePerSecond: 1_000, burst: 1_000, globalConcurrency: 3 });
    let active = 0;
    let max = 0;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        limiter.run(`h${i % 7}:80`, async () => {
          max = Math.max(max, ++active);
          await new Promise((r) => setTimeout(r, 5));
          active--;
        }),
      ),
    );
    expect(max).toBe(3);
  });

  it("rejects waiting and later acquisitions once cancelled, holders keep their slots", async () => {
    const limiter = new HostLimiter({ concurrency: 1, ratePerSecond: 1_000, burst: 1_000, globalConcurrency: 10 });
    const held = await limiter.acquire("h:80");
    const waiting = limiter.acquire("h:80");
    limiter.cancelWaiting();
    await expect(waiting).rejects.toBeInstanceOf(AcquireAbortedError);
    await expect(limiter.acquire("other:80")).rejects.toBeInstanceOf(AcquireAbortedError);
    expect(limiter.inFlight).toBe(1);
    held();
    expect(limiter.inFlight).toBe(0);
  });

  it("forgets idle hosts once their bucket is full again", async () => {
    let now = 0;
    const limiter = new HostLimiter({ concurrency: 2, ratePerSecond: 10, burst: 10, globalConcurrency: 10, now: () => now });
    for (let i = 0; i < 100; i++) (await limiter.acquire(`h${i}:80`))();
    expect(limiter.trackedHosts).toBe(100);
    now += 2_000;
    (await limiter.acquire("fresh:80"))();
    expect(limiter.trackedHosts).toBe(1);
  });
});

describe("slots", () => {
  it("spread listings evenly over the interval and repeat with it", () => {
    const interval = 600_000;
    const bins = new Array<number>(60).fill(0);
    for (let id = 1; id <= 60_000; id++) bins[Math.floor(phaseMs(id, interval) / 10_000)]!++;
    for (const n of bins) expect(Math.abs(n - 1_000)).toBeLessThan(150);
    const now = new Date("2026-11-20T12:00:00Z");
    for (let id = 1; id <= 1_000; id++) {
      // First sight: the next slot is half to one and a half intervals away, on the phase.
      const slot = nextSlot(id, now, interval);
      expect(slot.getTime() - now.getTime()).toBeGreaterThanOrEqual(interval / 2);
      expect(slot.getTime() - now.getTime()).toBeLessThan(1.5 * interval);
      expect(slot.getTime() % interval).toBe(phaseMs(id, interval));
      // On the slot, or a little late: exactly one interval on.
      expect(nextSlot(id, slot, interval).getTime()).toBe(slot.getTime() + interval);
      expect(nextSlot(id, new Date(slot.getTime() + 5_000), interval).getTime()).toBe(slot.getTime() + interval);
    }
  });
});
