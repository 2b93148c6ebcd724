import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recomputeVerdicts } from "../../src/services/evidence/index.js";
import { startProber } from "../helpers/start-prober.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { insertListings, paymentRequiredHeader, send402, startServer, v2Challenge, type TestServer } from "./helpers.js";

// Issue 37 item 1 (decision 0046): endpoints that validate input before they quote. Probed with
// the input their listing declares they quote; one that refuses everything reads needs_input,
// never failing, dead or zombie; a real 500 still goes dead.
const INTERVAL_MS = 600_000;
let ctx: TestContext;
let server: TestServer;
const seen: Array<{ path: string; query: string; body: string; type: string | undefined }> = [];
const challenge = () => ({ header: paymentRequiredHeader(v2Challenge("10000")) });

beforeAll(async () => {
  ctx = await createTestContext({ ALLOW_PRIVATE_TARGETS: "true" });
  server = await startServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://x");
      const body = Buffer.concat(chunks).toString();
      seen.push({ path: url.pathname, query: url.search, body, type: req.headers["content-type"] });
      const bad = (status: number) => void res.writeHead(status, { "content-type": "application/json" }).end('{"error":"invalid input"}');
      if (url.pathname === "/weather") return url.searchParams.get("city") === "Kiel" ? send402(res, challenge()) : bad(400);
      if (url.pathname === "/summarize") return /"text":"hello"/.test(body) ? send402(res, challenge()) : bad(422);
      if (url.pathname === "/strict") return bad(422);
      if (url.pathname === "/broken") return void res.writeHead(500).end();
      res.writeHead(404).end();
    });
  });
});

afterAll(async () => {
  await server.close();
  await ctx.close();
});

const declare = (id: number, input: object) =>
  ctx.db.db
    .updateTable("listings")
    .set({ raw: sql`${JSON.stringify({ extensions: { bazaar: { info: { input } } } })}::jsonb` })
    .where("id", "=", id)
    .execute();
const snapshot = (id: number) =>
  ctx.db.db
    .selectFrom("signal_snapshots")
    .select(["probes_1h", "healthy_1h", "needs_input_1h", "uptime_1h_pct", "uptime_7d_pct", "fail_streak", "last_outcome", "warnings"])
    .where("listing_id", "=", id)
    .executeTakeFirstOrThrow();
// A tiny test catalog: every provider holds over 5% of it (high_concentration, informational), so it is left out.
const own = async (id: number) => {
  const { warnings, ...rest } = await snapshot(id);
  return { ...rest, warnings: warnings.filter((w) => w !== "high_concentration") };
};
const outcomes = async (id: number) =>
  new Set((await ctx.db.db.selectFrom("probes").select("outcome").where("listing_id", "=", id).execute()).map((p) => p.outcome));

describe("endpoints that need input", () => {
  it("quote when probed with the declared input; refusing everything is needs_input, never a failure", async () => {
    const listedAt = new Date(ctx.clock.now().getTime() - 10 * 86_400_000);
    const [weather, summarize] = await insertListings(
      ctx.db.db,
      [
        { url: `${server.url}/weather`, method: "GET", priceUsdc: "0.01" },
        { url: `${server.url}/summarize`, priceUsdc: "0.01" },
      ],
      listedAt,
    );
    // The strict endpoint shares a service with a broken one: the broken one is dead, and no endpoint is a zombie.
    const [strict, broken] = await insertListings(ctx.db.db, [{ url: `${server.url}/strict`, priceUsdc: "0.01" }, { url: `${server.url}/broken` }], listedAt);
    const [lone] = await insertListings(ctx.db.db, [{ url: `${server.url}/broken?alone=1` }], listedAt);
    await declare(weather!, { type: "http", method: "GET", queryParams: { city: "Kiel" } });
    await declare(summarize!, { type: "http", method: "POST", bodyType: "json", body: { text: "hello" } });
    await declare(strict!, { type: "http", method: "POST", bodyType: "json", body: { text: "hello" } });

    const prober = startProber(ctx, { tickMs: 3_600_000, runAtStart: false, intervalSeconds: INTERVAL_MS / 1000 });
    try {
      // Many probe intervals on the injected clock, each cycle followed by the full verdict pass (zombie's context).
      for (let i = 0; i < 12; i++) {
        ctx.clock.advance(INTERVAL_MS);
        await prober.runNow();
        await recomputeVerdicts(ctx.db, ctx.clock.now());
        const s = await snapshot(strict!);
        expect(s.warnings).not.toContain("failing");
        expect(s.warnings).not.toContain("dead");
        expect(s.warnings).not.toContain("zombie");
      }
    } finally {
      await prober.stop();
    }

    // The query a client builds from the declaration, every time: a GET that quotes, healthy with its challenge read.
    expect(new Set(seen.filter((r) => r.path === "/weather").map((r) => r.query))).toEqual(new Set(["?city=Kiel"]));
    expect(await outcomes(weather!)).toEqual(new Set(["healthy"]));
    expect(await own(weather!)).toMatchObject({ uptime_1h_pct: 100, needs_input_1h: 0, last_outcome: "healthy", warnings: [] });
    const price = await ctx.db.db.selectFrom("probes").select("price_usdc").where("listing_id", "=", weather!).limit(1).executeTakeFirstOrThrow();
    expect(Number(price.price_usdc)).toBe(0.01);

    // The body example goes with the default profile and quotes; the profiles without it are refused: needs_input, not errors.
    const bodies = seen.filter((r) => r.path === "/summarize");
    expect(bodies.some((r) => r.body === '{"text":"hello"}' && r.type === "application/json")).toBe(true);
    expect(bodies.some((r) => r.body !== '{"text":"hello"}')).toBe(true);
    expect(await outcomes(summarize!)).toEqual(new Set(["healthy", "needs_input"]));
    expect(await own(summarize!)).toMatchObject({ uptime_1h_pct: 100, uptime_7d_pct: 100, fail_streak: 0, warnings: [] });

    // Refused whatever it is sent: up, its offer unseen. No uptime, no fail streak, the needs_input code and investigate.
    expect(await outcomes(strict!)).toEqual(new Set(["needs_input"]));
    const s = await own(strict!);
    expect(s).toMatchObject({ probes_1h: 0, uptime_1h_pct: null, uptime_7d_pct: null, fail_streak: 0, last_outcome: "needs_input", warnings: ["needs_input"] });
    expect(s.needs_input_1h).toBeGreaterThanOrEqual(6);
    const report = await ctx.services.reports.preflight(`${server.url}/strict`);
    expect(report).toMatchObject({ ok: true, recommended_action: "investigate", confidence: 1 });
    expect(report.reason_codes.filter((c) => c !== "high_concentration")).toEqual(["needs_input"]);

    // A real 500 still goes dead; beside the needs_input endpoint its service is no zombie, alone it is.
    expect((await snapshot(broken!)).warnings).toContain("dead");
    expect((await snapshot(broken!)).warnings).not.toContain("zombie");
    expect((await snapshot(lone!)).warnings).toEqual(expect.arrayContaining(["dead", "zombie"]));
  });
});
