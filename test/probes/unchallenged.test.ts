import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { classifyResponse } from "../../src/services/probes/endpoint-probe.js";
import { startProber } from "../helpers/start-prober.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { insertListings, paymentRequiredHeader, send402, startServer, v2Challenge, type TestServer } from "./helpers.js";

// Issue 35 item 8 (decision 0037): a paid listing that answers 200 without a challenge is its
// own outcome, `unchallenged`: not healthy in uptime, not a failure, and the `unchallenged` warning.
const INTERVAL_MS = 600_000;
let ctx: TestContext;
let server: TestServer;
let charging = false;

beforeAll(async () => {
  ctx = await createTestContext({ ALLOW_PRIVATE_TARGETS: "true" });
  server = await startServer((req, res) => {
    req.resume();
    if ((req.url ?? "").startsWith("/__lookout_probe_")) return void res.writeHead(404).end();
    if (charging) return send402(res, { header: paymentRequiredHeader(v2Challenge("10000")) });
    res.writeHead(200, { "content-type": "application/json" }).end('{"forecast":"sunny"}');
  });
});

afterAll(async () => {
  await server.close();
  await ctx.close();
});

const ok200 = { ok: true as const, status: 200, headers: {}, body: Buffer.from("{}"), truncated: false, latencyMs: 12 };
const PRICE = { network: null, asset: null };

describe("a 2xx without a challenge", () => {
  it("is unchallenged for a listing the catalog prices, healthy for one it does not", () => {
    expect(classifyResponse(ok200, { ...PRICE, paid: true })).toMatchObject({ outcome: "unchallenged", statusCode: 200, priceUsdc: null });
    expect(classifyResponse(ok200, { ...PRICE, paid: false })).toMatchObject({ outcome: "healthy", statusCode: 200 });
    expect(classifyResponse({ ok: false, kind: "ssrf_blocked", message: "refused" }, PRICE)).toMatchObject({ outcome: "blocked", errorKind: "ssrf_blocked" });
  });

  it("counts neither as healthy nor as a failure, and warns until the listing charges again", async () => {
    const [paid, free] = await insertListings(
      ctx.db.db,
      [{ url: `${server.url}/forecast`, priceUsdc: "0.01" }, { url: `${server.url}/free` }],
      new Date(ctx.clock.now().getTime() - 10 * 86_400_000),
    );
    const prober = startProber(ctx, { tickMs: 3_600_000, runAtStart: false, intervalSeconds: INTERVAL_MS / 1000 });
    const run = async (n: number) => {
      for (let i = 0; i < n; i++) {
        ctx.clock.advance(INTERVAL_MS);
        await prober.runNow();
      }
    };
    const snapshot = (id: number) =>
      ctx.db.db
        .selectFrom("signal_snapshots")
        .select(["probes_1h", "healthy_1h", "unchallenged_1h", "uptime_1h_pct", "uptime_7d_pct", "fail_streak", "last_outcome", "warnings"])
        .where("listing_id", "=", id)
        .executeTakeFirstOrThrow();
    try {
      await run(3);
      const outcomes = await ctx.db.db.selectFrom("probes").select(["listing_id", "outcome"]).execute();
      expect(new Set(outcomes.filter((p) => Number(p.listing_id) === paid).map((p) => p.outcome))).toEqual(new Set(["unchallenged"]));
      expect(new Set(outcomes.filter((p) => Number(p.listing_id) === free).map((p) => p.outcome))).toEqual(new Set(["healthy"]));
      const s = await snapshot(paid!);
      expect(s).toMatchObject({ probes_1h: 0, healthy_1h: 0, uptime_1h_pct: null, uptime_7d_pct: null, fail_streak: 0, last_outcome: "unchallenged" });
      expect(s.unchallenged_1h).toBeGreaterThanOrEqual(2);
      expect(s.warnings).toEqual(["unchallenged"]);
      expect(await snapshot(free!)).toMatchObject({ uptime_1h_pct: 100, warnings: [] });

      // It charges again: healthy answers judge its uptime (100%); the warning leaves with the hour.
      charging = true;
      await run(2);
      expect(await snapshot(paid!)).toMatchObject({ uptime_1h_pct: 100, uptime_7d_pct: 100, last_outcome: "healthy", warnings: ["unchallenged"] });
      await run(6);
      expect(await snapshot(paid!)).toMatchObject({ unchallenged_1h: 0, uptime_7d_pct: 100, warnings: [] });
    } finally {
      await prober.stop();
    }
  });
});
