import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CONFIRM_PROBES } from "../../src/services/probes/constants.js";
import { DAY, MINUTE, THRESHOLDS } from "../../src/services/signals/constants.js";
import { startProber, type ProberHandle } from "../helpers/start-prober.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { insertListings, probeAtNextDue, startServer, type TestServer } from "./helpers.js";

/**
 * Decision 0047 through the real prober on the injected clock: a loopback endpoint fails from a
 * chosen instant (or by a pattern), and whatever it answered before, `dead` is stored within
 * 3 minutes of its first failed probe; a flapper's probes stay within the stated bound.
 */
const INTERVAL_MS = 600_000;
let ctx: TestContext;
let server: TestServer;
let prober: ProberHandle;
/** Per path: whether the endpoint fails at the injected clock's instant (500), else answers 200. */
const fails = new Map<string, (at: number) => boolean>();

beforeAll(async () => {
  ctx = await createTestContext({ ALLOW_PRIVATE_TARGETS: "true" });
  server = await startServer((req, res) => {
    req.resume();
    const failing = fails.get(req.url ?? "/")?.(ctx.clock.now().getTime()) ?? false;
    res.writeHead(failing ? 500 : 200, { "content-type": "application/json" }).end("{}");
  });
  prober = startProber(ctx, { tickMs: 3_600_000, runAtStart: false, intervalSeconds: INTERVAL_MS / 1000 });
});
afterEach(async () => {
  fails.clear();
  for (const t of ["probes", "probe_hourly", "signal_snapshots", "listings"] as const) await ctx.db.db.deleteFrom(t).execute();
  ctx.clock.set("2026-11-20T12:00:00Z");
});
afterAll(async () => {
  await prober.stop();
  await server.close();
  await ctx.close();
});

/** A listing of a service first seen ten days ago, due at once; its path fails as `failing` says. */
async function listing(path: string, failing: (at: number) => boolean) {
  fails.set(path, failing);
  const [id] = await insertListings(ctx.db.db, [{ url: `${server.url}${path}`, nextProbeAt: ctx.clock.now() }], new Date(ctx.clock.now().getTime() - 10 * DAY));
  return id!;
}

/** Moves the clock to the listing's next probe, runs one prober cycle there; its time and outcome. */
async function probeNext(id: number) {
  const at = await probeAtNextDue(ctx, prober, id);
  const last = await ctx.db.db
    .selectFrom("signal_snapshots")
    .select(["last_outcome", "warnings", "critical"])
    .where("listing_id", "=", id)
    .executeTakeFirstOrThrow();
  return { at: at.getTime(), failed: last.last_outcome === "error", dead: last.critical && (last.warnings ?? []).includes("dead") };
}

/** Probes until the endpoint's first failed probe, then until the stored verdict says dead: the time between. */
async function timeToDead(id: number, maxProbes = 20): Promise<number> {
  let first: number | undefined;
  for (let i = 0; i < maxProbes; i++) {
    const p = await probeNext(id);
    if (p.failed) first ??= p.at;
    else first = undefined;
    if (p.dead) return p.at - first!;
  }
  throw new Error("never dead");
}

describe("dead within 3 minutes of the first failed probe (decision 0047)", () => {
  it("a new listing that starts failing in its first interval, after two healthy probes", async () => {
    const seen = ctx.clock.now().getTime();
    const id = await listing("/fails-early", (at) => at >= seen + MINUTE);
    expect(await timeToDead(id)).toBeLessThanOrEqual(3 * MINUTE);
  });

  it("a listing that fails right after a confirmed-healthy run, and again after it recovered", async () => {
    const seen = ctx.clock.now().getTime();
    const recovered = (at: number) => at >= seen + 30 * MINUTE && at < seen + 40 * MINUTE;
    const id = await listing("/fails-twice", (at) => at >= seen + 5 * MINUTE && !recovered(at));
    expect(await timeToDead(id)).toBeLessThanOrEqual(3 * MINUTE);
    // Dead at its slot cadence until it answers again; its next failure starts a new run, confirmed as fast.
    while ((await probeNext(id)).failed) expect(ctx.clock.now().getTime()).toBeLessThan(seen + 40 * MINUTE);
    expect(await timeToDead(id)).toBeLessThanOrEqual(3 * MINUTE);
  });

  it("a flapper whose failure runs stop short of dead gets at most deadMinProbes probes per slot", async () => {
    const times: number[] = [];
    // Two failures then an answer, over and over: every run is confirmed, none reaches dead.
    const id = await listing("/flaps", () => times.length % 3 !== 2);
    const start = ctx.clock.now().getTime();
    while (ctx.clock.now().getTime() - start < 6 * INTERVAL_MS) {
      const p = await probeNext(id);
      times.push(p.at);
      expect(p.dead).toBe(false);
    }
    const perWindow = (t: number) => times.filter((u) => u > t - INTERVAL_MS && u <= t).length;
    const firstSight = times[CONFIRM_PROBES - 1]!;
    for (const t of times) expect(perWindow(t)).toBeLessThanOrEqual(2 * THRESHOLDS.deadMinProbes + (t - INTERVAL_MS < firstSight ? CONFIRM_PROBES - 1 : 0));
    // Six intervals: six slots' worth and the two first-sight confirmations, not one a minute.
    expect(times.length).toBeLessThanOrEqual(7 * THRESHOLDS.deadMinProbes + CONFIRM_PROBES - 1);
    expect(times.length).toBeGreaterThanOrEqual(5 * THRESHOLDS.deadMinProbes);
  });
});
