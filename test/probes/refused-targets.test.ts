import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/http/app.js";
import { startProber } from "../helpers/start-prober.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { body } from "../helpers/http.js";
import { insertListings, paymentRequiredHeader, send402, startServer, v2Challenge, type TestServer } from "./helpers.js";
import { captureLog } from "../helpers/log-capture.js";

// Issue 35 item 4 (decision 0037): an operator's first run against a loopback catalog without
// ALLOW_PRIVATE_TARGETS stores refusals as `blocked`, says so once in the log and on /readyz,
// and leaves uptime to the probes that reached the endpoint.
const INTERVAL_MS = 600_000;
let ctx: TestContext;
let server: TestServer;
const captured = captureLog();

beforeAll(async () => {
  ctx = await createTestContext({ ALLOW_PRIVATE_TARGETS: "false" });
  ctx.log = captured.log;
  server = await startServer((req, res) => {
    req.resume();
    if ((req.url ?? "").startsWith("/__lookout_probe_")) return void res.writeHead(404).end();
    send402(res, { header: paymentRequiredHeader(v2Challenge("10000")) });
  });
});

afterAll(async () => {
  await server.close();
  await ctx.close();
});

const snapshots = () =>
  ctx.db.db
    .selectFrom("signal_snapshots")
    .select([
      "listing_id",
      "probes_1h",
      "healthy_1h",
      "probes_7d",
      "uptime_1h_pct",
      "uptime_7d_pct",
      "fail_streak",
      "last_probe_at",
      "last_refused_at",
      "warnings",
    ])
    .orderBy("listing_id")
    .execute();
const probing = async () => (await body(await createApp({ ctx, routes: [] }).request("/readyz"))).checks.probing;
const warnings = () => captured.lines.filter((l) => l.level === 40 && String(l.msg).includes("ALLOW_PRIVATE_TARGETS"));

/** Runs `cycles` probe cycles of one prober, the clock a probe interval on before each. */
async function cycles(allowPrivate: boolean, n: number) {
  const prober = startProber(ctx, { tickMs: 3_600_000, runAtStart: false, intervalSeconds: INTERVAL_MS / 1000, allowPrivate });
  try {
    for (let i = 0; i < n; i++) {
      ctx.clock.advance(INTERVAL_MS);
      await prober.runNow();
    }
  } finally {
    await prober.stop();
  }
}

describe("a loopback catalog without ALLOW_PRIVATE_TARGETS", () => {
  it("is refused as its own outcome, logged once, reported by /readyz, and judged only on probes that reached it", async () => {
    const port = new URL(server.url).port;
    const ids = await insertListings(
      ctx.db.db,
      [
        { url: `http://localhost:${port}/weather`, priceUsdc: "0.01" },
        { url: `http://127.0.0.1:${port}/news`, priceUsdc: "0.01" },
      ],
      new Date(ctx.clock.now().getTime() - 10 * 86_400_000),
    ); // an established service: no new_provider
    expect((await probing()).refused_listings).toBe(0);

    await cycles(false, 3);
    const refused = await ctx.db.db.selectFrom("probes").select(["outcome", "error_kind"]).execute();
    // Each listing is due once per interval at its own slot (slots.ts): two or three probes each.
    expect(refused.length).toBeGreaterThanOrEqual(4);
    expect(refused.every((p) => p.outcome === "blocked" && p.error_kind === "ssrf_blocked")).toBe(true);
    // Not failures: no uptime, no streak, no dead; the verdict says there is no evidence.
    for (const s of await snapshots()) {
      expect(s).toMatchObject({ probes_1h: 0, probes_7d: 0, uptime_1h_pct: null, uptime_7d_pct: null, fail_streak: 0, last_probe_at: null });
      expect(s.last_refused_at).toEqual(ctx.clock.now());
      expect(s.warnings).toEqual(["no_history"]);
    }
    expect(await ctx.db.db.selectFrom("probe_hourly").selectAll().execute()).toEqual([]);
    // One warning for the process, naming the setting and a refused host, however many refusals.
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toMatchObject({ setting: "ALLOW_PRIVATE_TARGETS" });
    expect([`localhost:${port}`, `127.0.0.1:${port}`]).toContain(warnings()[0]!.host);
    const check = await probing();
    expect(check).toMatchObject({ ok: true, refused_listings: 2 });
    expect(check.reason).toMatch(/^the catalog cannot be probed: .*2 listings.*ALLOW_PRIVATE_TARGETS=true/);

    // Turned on: every probe answers with a challenge, and uptime is 100% over the hour and the week.
    await cycles(true, 4);
    for (const s of await snapshots()) {
      expect(s).toMatchObject({ healthy_1h: s.probes_1h, uptime_1h_pct: 100, uptime_7d_pct: 100, fail_streak: 0 });
      expect(s.probes_7d).toBeGreaterThanOrEqual(3);
      expect(s.warnings).toEqual([]);
    }
    expect(ids).toHaveLength(2);
    expect(await probing()).toMatchObject({ ok: true, refused_listings: 0 });
    expect(warnings()).toHaveLength(1);
  });
});
