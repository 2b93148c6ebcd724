import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DAY, MINUTE } from "../../src/services/signals/constants.js";
import { watchedVerdicts } from "../../src/services/watch/watched-verdicts.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { startProber, type ProberHandle } from "../helpers/start-prober.js";
import { insertListings, probeAtNextDue, startServer, type TestServer } from "../probes/helpers.js";
import { watchOn } from "../watch/helpers/watch-fixtures.js";
import { startReceiver, type Receiver } from "../watch/helpers/receiver.js";

/**
 * Decision 0049 through the real prober on the injected clock: a loopback endpoint that failed
 * about 90 % of the last hour answers again. Before, every product read `pay` at once (dead and
 * failing clear at the first healthy probe); now each reads `flapping` and investigate.
 */
let ctx: TestContext;
let server: TestServer;
let prober: ProberHandle;
let rx: Receiver;
let down = true;
let id: number;
let url: string;

beforeAll(async () => {
  ctx = await createTestContext({ ALLOW_PRIVATE_TARGETS: "true", ALLOW_PRIVATE_WEBHOOKS: "true" });
  rx = await startReceiver();
  server = await startServer((req, res) => {
    req.resume();
    res.writeHead(down ? 503 : 200, { "content-type": "application/json" }).end("{}");
  });
  prober = startProber(ctx, { tickMs: 3_600_000, runAtStart: false, intervalSeconds: 300 });
  url = `${server.url}/flaps`;
  id = (await insertListings(ctx.db.db, [{ url, nextProbeAt: ctx.clock.now() }], new Date(ctx.clock.now().getTime() - 10 * DAY)))[0]!;
  await watchOn(ctx, rx, "/flaps", url, { signals: ["flapping"] });
});
afterAll(async () => {
  await prober.stop();
  await server.close();
  await rx.close();
  await ctx.close();
});

const probeNext = () => probeAtNextDue(ctx, prober, id);

/** What each product says of the URL now. */
async function products() {
  const { reports, trial, verdictFeed } = ctx.services;
  const [preflight, forensics, batch, trialAnswer, watched, snapshot] = await Promise.all([
    reports.preflight(url),
    reports.forensics(url),
    reports.batch([url]),
    trial.preflight(url, "198.51.100.7"),
    watchedVerdicts(ctx.db.db, ctx.clock.now()),
    verdictFeed.snapshot(),
  ]);
  return { preflight, forensics, batch: batch.results[0]!, trial: trialAnswer, watch: watched.get(url)!, entry: snapshot.entries.find((e) => e.url === url)! };
}

describe("a flapper never reads pay (decision 0049)", () => {
  it("reads flapping and investigate in preflight, trial, batch, forensics, watches and the snapshot once it is back", async () => {
    // An hour of one healthy answer in ten, five-minute slots plus the planner's confirmations.
    const start = ctx.clock.now().getTime();
    while (ctx.clock.now().getTime() - start < 60 * MINUTE) {
      down = Math.floor((ctx.clock.now().getTime() - start) / (10 * MINUTE)) % 6 !== 5;
      await probeNext();
    }
    down = false;
    await probeNext();
    const p = await products();
    const snap = await ctx.db.db.selectFrom("signal_snapshots").selectAll().where("listing_id", "=", id).executeTakeFirstOrThrow();
    expect(snap.last_outcome).toBe("healthy");
    expect(snap.uptime_1h_pct).toBeLessThan(50);
    for (const v of [p.preflight, p.forensics, p.batch, p.trial]) {
      expect(v.reason_codes).toContain("flapping");
      expect(v.reason_codes).not.toContain("dead");
      expect(v.warnings).not.toContain("flapping");
      expect(v.recommended_action).toBe("investigate");
    }
    expect(p.watch.state("flapping")).toBe("fired");
    expect(p.entry).toMatchObject({ action: "investigate" });
    expect(p.entry.reason_codes).toContain("flapping");
  });

  it("reads pay again once the hour behind it is mostly healthy", async () => {
    const back = ctx.clock.now().getTime();
    while (ctx.clock.now().getTime() - back < 65 * MINUTE) await probeNext();
    const p = await products();
    for (const v of [p.preflight, p.forensics, p.batch, p.trial]) expect(v.reason_codes).not.toContain("flapping");
    expect(p.preflight.recommended_action).toBe("pay");
    expect(p.watch.state("flapping")).toBe("cleared");
  });
});
