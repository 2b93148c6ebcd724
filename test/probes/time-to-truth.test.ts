import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CONFIRM_PROBES } from "../../src/services/probes/constants.js";
import { DAY, MINUTE } from "../../src/services/signals/constants.js";
import { startProber, type ProberHandle } from "../helpers/start-prober.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { insertListings, probeAtNextDue, startServer, type TestServer } from "./helpers.js";

// The default cadence: a listing's slot comes round every 10 minutes.
const INTERVAL_MS = 600_000;
let ctx: TestContext;
let server: TestServer;
let prober: ProberHandle;
/** Per path: whether the endpoint answers 200 (true) or 500 (false). */
const up = new Map<string, boolean>();

beforeAll(async () => {
  ctx = await createTestContext({ ALLOW_PRIVATE_TARGETS: "true" });
  server = await startServer((req, res) => {
    req.resume();
    res.writeHead(up.get(req.url ?? "/") === false ? 500 : 200, { "content-type": "application/json" }).end("{}");
  });
  prober = startProber(ctx, { tickMs: 3_600_000, runAtStart: false, intervalSeconds: INTERVAL_MS / 1000 });
});

afterEach(async () => {
  up.clear();
  for (const t of ["probes", "probe_hourly", "signal_snapshots", "listings"] as const) await ctx.db.db.deleteFrom(t).execute();
  ctx.clock.set("2026-11-20T12:00:00Z");
});

afterAll(async () => {
  await prober.stop();
  await server.close();
  await ctx.close();
});

/** Listings of a service first seen ten days ago (so new_provider stays quiet), due at once. */
const list = (url: string) => insertListings(ctx.db.db, [{ url, nextProbeAt: ctx.clock.now() }], new Date(ctx.clock.now().getTime() - 10 * DAY));

const nextDue = async (id: number) =>
  (await ctx.db.db.selectFrom("listings").select("next_probe_at").where("id", "=", id).executeTakeFirstOrThrow()).next_probe_at;

const probeNext = (id: number) => probeAtNextDue(ctx, prober, id);

/** The stored verdict (what the blacklist, alternatives, watches and certificates read) and preflight's. */
async function verdicts(url: string) {
  const stored = await ctx.db.db
    .selectFrom("signal_snapshots as s")
    .innerJoin("listings as l", "l.id", "s.listing_id")
    .select(["s.warnings", "s.critical"])
    .where("l.url", "=", url)
    .executeTakeFirstOrThrow();
  const report = await ctx.services.reports.preflight(url);
  return { stored: { warnings: stored.warnings, critical: stored.critical }, report };
}

describe("time to truth at the default cadence (decision 0014)", () => {
  it("a new listing that always answers 500 is dead within 3 minutes of its first failed probe, and never pay before", async () => {
    const url = `${server.url}/always-500`;
    up.set("/always-500", false);
    const [id] = await list(url);
    const first = await probeNext(id!);
    for (;;) {
      const { stored, report } = await verdicts(url);
      expect(report.recommended_action).not.toBe("pay");
      if (stored.critical) {
        expect(report).toMatchObject({ ok: false, recommended_action: "use_alternatives" });
        expect(stored.warnings).toContain("dead");
        break;
      }
      expect(report.reason_codes).toContain("failing");
      const at = await probeNext(id!);
      expect(at.getTime() - first.getTime()).toBeLessThanOrEqual(3 * MINUTE);
    }
    expect(ctx.clock.now().getTime() - first.getTime()).toBeLessThanOrEqual(3 * MINUTE);
  });

  it("a new healthy listing (of an established service) reaches confidence 0.4 within 3 minutes of first sight, then waits for its slot", async () => {
    const url = `${server.url}/fine`;
    const seen = ctx.clock.now();
    const [id] = await list(url);
    for (let i = 0; i < CONFIRM_PROBES; i++) await probeNext(id!);
    const { report } = await verdicts(url);
    expect(report.confidence).toBeGreaterThanOrEqual(0.4);
    expect(report.recommended_action).toBe("pay");
    expect(ctx.clock.now().getTime() - seen.getTime()).toBeLessThanOrEqual(3 * MINUTE);
    // Settled: the next probe is at the listing's slot, at least half an interval away.
    expect((await nextDue(id!)).getTime() - ctx.clock.now().getTime()).toBeGreaterThanOrEqual(INTERVAL_MS / 2);
  });

  it("a settled endpoint that starts failing is dead within 3 minutes of its first failed probe and recovers at its first healthy one", async () => {
    const url = `${server.url}/flips`;
    const [id] = await list(url);
    for (let i = 0; i < CONFIRM_PROBES; i++) await probeNext(id!);

    up.set("/flips", false);
    const firstFailed = await probeNext(id!);
    expect((await verdicts(url)).report).toMatchObject({ ok: true, recommended_action: "investigate", warnings: [], reason_codes: ["failing"] });
    while (!(await verdicts(url)).stored.critical) await probeNext(id!);
    expect(ctx.clock.now().getTime() - firstFailed.getTime()).toBeLessThanOrEqual(3 * MINUTE);

    // Settled as dead: back to the slot cadence, then the endpoint recovers.
    const slot = await nextDue(id!);
    expect(slot.getTime() - ctx.clock.now().getTime()).toBeGreaterThanOrEqual(INTERVAL_MS / 2);
    up.set("/flips", true);
    await probeNext(id!);
    const { stored, report } = await verdicts(url);
    // dead clears at once; the hour behind it was half failures, so flapping until it is mostly healthy (decision 0049).
    expect(stored).toEqual({ warnings: ["flapping"], critical: false });
    expect(report).toMatchObject({ ok: true, warnings: [], reason_codes: ["flapping"], recommended_action: "investigate" });
  });

  it("a flapping endpoint gets a bounded number of confirmation probes per interval", async () => {
    const url = `${server.url}/flaps`;
    const [id] = await list(url);
    const start = ctx.clock.now().getTime();
    const times: number[] = [];
    while (ctx.clock.now().getTime() - start < 6 * INTERVAL_MS) {
      up.set("/flaps", times.length % 2 === 0);
      times.push((await probeNext(id!)).getTime());
    }
    // In any window of one interval: at most CONFIRM_PROBES + 1 probes.
    for (const t of times) expect(times.filter((u) => u > t - INTERVAL_MS && u <= t).length).toBeLessThanOrEqual(CONFIRM_PROBES + 1);
    // Over six intervals that is a bounded multiple of the six slot probes, not one a minute.
    expect(times.length).toBeLessThanOrEqual(6 * (CONFIRM_PROBES + 1) + 1);
  });
});
