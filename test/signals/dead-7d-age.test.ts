import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recomputeVerdicts } from "../../src/services/evidence/index.js";
import { DAY } from "../../src/services/signals/constants.js";
import { startProber } from "../helpers/start-prober.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { insertListings, startServer, type TestServer } from "../probes/helpers.js";

// Issue 35 item 8 (decision 0037): at a demo cadence a new listing gathers 20 failed probes in
// minutes (here 24 minutes: 48 cycles 30 s apart); dead_7d waits until it has been catalogued 7 days. On the injected clock.
const INTERVAL_S = 30;
let ctx: TestContext;
let server: TestServer;

beforeAll(async () => {
  ctx = await createTestContext({ ALLOW_PRIVATE_TARGETS: "true" });
  server = await startServer((req, res) => {
    req.resume();
    res.writeHead((req.url ?? "").startsWith("/__lookout_probe_") ? 404 : 503).end();
  });
});

afterAll(async () => {
  await server.close();
  await ctx.close();
});

const warnings = async (id: number) =>
  await ctx.db.db.selectFrom("signal_snapshots").select(["warnings", "probes_7d"]).where("listing_id", "=", id).executeTakeFirstOrThrow();

describe("dead_7d", () => {
  it("needs 7 days in the catalog, however many failed probes came sooner", async () => {
    const [id] = await insertListings(ctx.db.db, [{ url: `${server.url}/geo`, priceUsdc: "0.01" }], ctx.clock.now());
    const prober = startProber(ctx, { tickMs: 3_600_000, runAtStart: false, intervalSeconds: INTERVAL_S });
    try {
      for (let i = 0; i < 48; i++) {
        ctx.clock.advance(INTERVAL_S * 1000);
        await prober.runNow();
      }
    } finally {
      await prober.stop();
    }
    await recomputeVerdicts(ctx.db, ctx.clock.now());
    const young = await warnings(id!);
    expect(young.probes_7d).toBeGreaterThanOrEqual(20);
    expect(young.warnings).toContain("dead");
    expect(young.warnings).not.toContain("dead_7d");

    // The same evidence for a listing the catalog has named for a week: dead all week.
    await ctx.db.db
      .updateTable("listings")
      .set({ first_seen_at: new Date(ctx.clock.now().getTime() - 7 * DAY) })
      .where("id", "=", id!)
      .execute();
    await recomputeVerdicts(ctx.db, ctx.clock.now());
    expect((await warnings(id!)).warnings).toContain("dead_7d");
  });
});
