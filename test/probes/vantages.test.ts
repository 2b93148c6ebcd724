import type { IncomingMessage } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/http/app.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { vantagesOf } from "../../src/services/reports/forensics-vantages.js";
import { DAY, MINUTE } from "../../src/services/signals/constants.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { startProber, type ProberHandle } from "../helpers/start-prober.js";
import { insertListings, paymentRequiredHeader, send402, startServer, v2Challenge, type TestServer } from "./helpers.js";

/**
 * Decision 0048 through two real probers in one process, on the injected clock: vantage "a" binds
 * 127.0.0.2, "b" 127.0.0.3, and loopback endpoints answer by the probe's source address.
 */
const INTERVAL_MS = 600_000;
const OTHER_PAY_TO = "0x" + "2".repeat(40);
let ctx: TestContext;
let server: TestServer;
let a: ProberHandle;
let b: ProberHandle;
/** Per path: the answer to a probe from `source` at the injected clock's instant. */
type Answer = "ok" | "fail" | "other_pay_to" | "dearer";
const answers = new Map<string, (source: string, at: number) => Answer>();
const from = (req: IncomingMessage) => (req.socket.remoteAddress ?? "").replace(/^::ffff:/, "");

beforeAll(async () => {
  ctx = await createTestContext({ ALLOW_PRIVATE_TARGETS: "true" });
  server = await startServer((req, res) => {
    req.resume();
    const answer = answers.get(req.url ?? "/")?.(from(req), ctx.clock.now().getTime()) ?? "ok";
    if (answer === "fail") return void res.writeHead(500).end();
    const c = v2Challenge(answer === "dearer" ? "5000" : "1000");
    if (answer === "other_pay_to") c.accepts[0]!.payTo = OTHER_PAY_TO;
    send402(res, { header: paymentRequiredHeader(c) });
  });
  const opts = { tickMs: 3_600_000, runAtStart: false, intervalSeconds: INTERVAL_MS / 1000 };
  a = startProber(ctx, { ...opts, vantage: "a", sourceAddress: "127.0.0.2", owner: "prober-a" });
  b = startProber(ctx, { ...opts, vantage: "b", sourceAddress: "127.0.0.3", owner: "prober-b" });
});
afterEach(async () => {
  answers.clear();
  for (const t of ["vantage_confirmations", "probes", "probe_hourly", "listing_quotes", "signal_snapshots", "listings", "probe_vantages"] as const)
    await ctx.db.db.deleteFrom(t).execute();
  ctx.clock.set("2026-11-20T12:00:00Z");
});
afterAll(async () => {
  await Promise.all([a.stop(), b.stop()]);
  await server.close();
  await ctx.close();
});

async function listing(path: string, answer: (source: string, at: number) => Answer) {
  answers.set(path, answer);
  const [id] = await insertListings(
    ctx.db.db,
    [{ url: `${server.url}${path}`, nextProbeAt: ctx.clock.now(), priceUsdc: "0.001" }],
    new Date(ctx.clock.now().getTime() - 10 * DAY),
  );
  return id!;
}

/**
 * The listing's next probe: `second` runs a cycle a second before (both vantages stay live, as
 * their few-second ticks keep them), `first` at the due instant, `second` again 5 s later.
 */
async function step(id: number, first: ProberHandle, second: ProberHandle) {
  const { next_probe_at: at } = await ctx.db.db.selectFrom("listings").select("next_probe_at").where("id", "=", id).executeTakeFirstOrThrow();
  ctx.clock.set(new Date(at.getTime() - 1000));
  await second.runNow();
  ctx.clock.set(at);
  await first.runNow();
  ctx.clock.advance(5000);
  await second.runNow();
  const s = await ctx.db.db.selectFrom("signal_snapshots").select(["warnings", "critical", "last_outcome"]).where("listing_id", "=", id).executeTakeFirst();
  return { at: at.getTime(), critical: s?.critical === true, warnings: s?.warnings ?? [] };
}

const probesOf = (id: number) =>
  ctx.db.db.selectFrom("probes").select(["vantage", "outcome", "probed_at"]).where("listing_id", "=", id).orderBy("probed_at").execute();

describe("probe vantages (decision 0048)", () => {
  it("dead for every vantage: dead within 3 minutes of the first failure, confirmed by both", async () => {
    const failFrom = ctx.clock.now().getTime() + 5 * MINUTE;
    const id = await listing("/dead", (_, at) => (at >= failFrom ? "fail" : "ok"));
    let dead: number | undefined;
    for (let i = 0; i < 20 && dead === undefined; i++) {
      const s = await step(id, a, b);
      if (s.critical && s.warnings.includes("dead")) dead = ctx.clock.now().getTime();
    }
    const probes = await probesOf(id);
    const firstFailure = probes.find((p) => p.outcome === "error")!.probed_at.getTime();
    expect(dead! - firstFailure).toBeLessThanOrEqual(3 * MINUTE);
    const failedFrom = new Set(probes.filter((p) => p.outcome === "error" && p.probed_at.getTime() <= dead!).map((p) => p.vantage));
    expect([...failedFrom].sort()).toEqual(["a", "b"]);
  });

  it("one live vantage: dead within 3 minutes as before, no confirmation requested", async () => {
    const failFrom = ctx.clock.now().getTime() + 5 * MINUTE;
    const id = await listing("/alone", (_, at) => (at >= failFrom ? "fail" : "ok"));
    let dead: number | undefined;
    for (let i = 0; i < 20 && dead === undefined; i++) {
      const { next_probe_at: at } = await ctx.db.db.selectFrom("listings").select("next_probe_at").where("id", "=", id).executeTakeFirstOrThrow();
      ctx.clock.set(at);
      await a.runNow();
      const s = await ctx.db.db.selectFrom("signal_snapshots").select(["critical", "warnings"]).where("listing_id", "=", id).executeTakeFirstOrThrow();
      if (s.critical && (s.warnings ?? []).includes("dead")) dead = at.getTime();
    }
    const probes = await probesOf(id);
    expect(dead! - probes.find((p) => p.outcome === "error")!.probed_at.getTime()).toBeLessThanOrEqual(3 * MINUTE);
    expect(new Set(probes.map((p) => p.vantage))).toEqual(new Set(["a"]));
    expect(await ctx.db.db.selectFrom("vantage_confirmations").selectAll().execute()).toEqual([]);
  });

  it("failing only from 127.0.0.2: the other vantage's answers keep it from dead, and nothing critical is published", async () => {
    const id = await listing("/local", (source) => (source === "127.0.0.2" ? "fail" : "ok"));
    const seen: string[][] = [];
    for (let i = 0; i < 12; i++) {
      const s = await step(id, a, b);
      expect(s.critical).toBe(false);
      seen.push(s.warnings);
    }
    const probes = await probesOf(id);
    // Vantage a took the scheduled probes (all failed); b answered each of its confirmation requests.
    expect(probes.filter((p) => p.vantage === "a").every((p) => p.outcome === "error")).toBe(true);
    expect(probes.filter((p) => p.vantage === "b").length).toBeGreaterThanOrEqual(6);
    expect(probes.filter((p) => p.vantage === "b").every((p) => p.outcome === "healthy")).toBe(true);
    expect(seen.flat()).not.toContain("dead");
    // What it reads: flapping (investigate, decision 0049), as half its answers fail; wildcard_402 is this
    // test server's (a 402 on every path of the host), not the vantages'.
    expect(seen.at(-1)).toContain("flapping");
    const views = await vantagesOf(ctx.db.db, id, ctx.clock.now());
    expect(views.map((v) => [v.name, v.uptime_1h_pct])).toEqual([
      ["a", 0],
      ["b", 100],
    ]);
  });

  it("a price switch one vantage saw first is held until the other vantage's probe, then published", async () => {
    const switchAt = ctx.clock.now().getTime() + 20 * MINUTE;
    const id = await listing("/switch", (_, at) => (at >= switchAt ? "dearer" : "ok"));
    const snapshot = () => ctx.db.db.selectFrom("signal_snapshots").select(["critical", "warnings"]).where("listing_id", "=", id).executeTakeFirstOrThrow();
    for (let i = 0; i < 20; i++) {
      const { next_probe_at: at } = await ctx.db.db.selectFrom("listings").select("next_probe_at").where("id", "=", id).executeTakeFirstOrThrow();
      ctx.clock.set(new Date(at.getTime() - 1000));
      await b.runNow();
      ctx.clock.set(at);
      await a.runNow();
      if (at.getTime() < switchAt) continue;
      // Vantage a saw the price five times dearer: price_switch would fire, but it waits for b.
      expect((await snapshot()).critical).toBe(false);
      const request = await ctx.db.db.selectFrom("vantage_confirmations").selectAll().where("listing_id", "=", id).executeTakeFirstOrThrow();
      expect(request).toMatchObject({ requested_by: "a", confirmed_at: null });
      ctx.clock.advance(5000);
      await b.runNow();
      const after = await snapshot();
      expect(after.critical).toBe(true);
      expect(after.warnings).toContain("price_switch");
      return;
    }
    throw new Error("never switched");
  });

  it("another payTo to 127.0.0.3 only: cloaking across vantages", async () => {
    const id = await listing("/cloak", (source) => (source === "127.0.0.3" ? "other_pay_to" : "ok"));
    let last = { critical: false, warnings: [] as string[] };
    // The two vantages take turns at the listing's due probes, as racing probers do.
    for (let i = 0; i < 6; i++) last = await step(id, i % 2 === 0 ? a : b, i % 2 === 0 ? b : a);
    const vantages = new Set((await probesOf(id)).map((p) => p.vantage));
    expect([...vantages].sort()).toEqual(["a", "b"]);
    expect(last.warnings).toContain("cloaking");
    expect(last.critical).toBe(true);
    // Forensics' per-vantage view: each vantage healthy, each with the payee it was shown.
    const views = await vantagesOf(ctx.db.db, id, ctx.clock.now());
    expect(views.map((v) => [v.name, v.uptime_1h_pct, v.quote?.pay_to])).toEqual([
      ["a", 100, "0x" + "1".repeat(40)],
      ["b", 100, OTHER_PAY_TO],
    ]);
    expect(views.every((v) => v.probes_3h >= 3 && v.last_probe_at !== null)).toBe(true);
    // The endpoint page shows the same per vantage.
    const page = await (await createApp({ ctx, routes: productRoutes }).request(`/endpoints/${id}`)).text();
    const section = page.slice(page.indexOf('<section id="vantages">'));
    expect(section).toContain("<code>a</code>");
    expect(section).toContain(`<code>${OTHER_PAY_TO}</code>`);
  });
});
