import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDevnet, type Devnet } from "../../src/chain/devnet.js";
import { createLocalFacilitator } from "../../src/chain/facilitator.js";
import { startDemoFleet, type DemoFleet } from "../../src/demo/index.js";
import { createApp, type App } from "../../src/http/app.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { MINUTE, PREFLIGHT_CODES } from "../../src/services/signals/constants.js";
import { recomputeVerdicts } from "../../src/services/signals/recompute-verdicts.js";
import { recomputeSnapshots } from "../../src/services/snapshots/index.js";
import { startIngester } from "../../src/workers/ingester.js";
import { startProber, type ProberHandle } from "../../src/workers/prober.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { body } from "../helpers/http.js";

let devnet: Devnet;
let fleet: DemoFleet;
let ctx: TestContext;
let app: App;
let prober: ProberHandle;

/** The preflight codes a kind shows after one hour of probing (30-day codes need 30 days). */
const shownAfterAnHour = (codes: readonly string[]) => codes.filter((c) => (PREFLIGHT_CODES as readonly string[]).includes(c) && c !== "never_paid_zombie");

beforeAll(async () => {
  ctx = await createTestContext({ ALLOW_PRIVATE_TARGETS: "true" });
  ctx.clock.set(new Date());
  devnet = await startDevnet({ log: ctx.log });
  fleet = await startDemoFleet({
    log: ctx.log,
    facilitator: createLocalFacilitator(devnet),
    network: devnet.network,
    payTo: devnet.payTo,
    asset: { address: devnet.usdcAddress, name: "USDC", version: "2" },
    slowMs: 2100,
    flapPeriodMs: 24 * 3_600_000,
  });
  const ingester = startIngester(ctx, [fleet.catalogUrl]);
  await ingester.runNow();
  await ingester.stop();
  prober = startProber(ctx, { runAtStart: false });
  // One hour of probing at the default 10-minute cadence, on the injected clock: a cycle every
  // 2 minutes, so each listing is probed at its own slot as the real prober's ticks do.
  for (let step = 0; step <= 30; step++) {
    if (step > 0) ctx.clock.advance(2 * MINUTE);
    await prober.runNow();
  }
  await recomputeSnapshots(ctx);
  await recomputeVerdicts(ctx.db.db, ctx.clock.now());
  app = createApp({ ctx, routes: productRoutes });
}, 120_000);

afterAll(async () => {
  await prober?.stop();
  await fleet?.stop();
  await devnet?.stop();
  await ctx?.close();
});

describe("the demo fleet through the whole pipeline", () => {
  it("gives every demo endpoint the warnings its behaviour implies", async () => {
    const mismatches: string[] = [];
    for (const e of fleet.endpoints) {
      if (e.kind === "flapping") continue; // its phase depends on the wall clock
      const report = await ctx.services.reports.preflight(e.url);
      const want = shownAfterAnHour(e.expected.warnings).sort();
      const got = [...report.warnings].sort();
      if (JSON.stringify(want) !== JSON.stringify(got)) mismatches.push(`${e.kind} ${e.url}: want [${want}] got [${got}]`);
    }
    expect(mismatches).toEqual([]);
  });

  it("answers preflight-trial for a demo decoy over HTTP", async () => {
    const decoy = fleet.endpoints.find((e) => e.kind === "decoy")!;
    const res = await app.request("/api/v1/preflight-trial", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url: decoy.url }) });
    expect(await body(res)).toMatchObject({ ok: false, recommended_action: "skip" });
  });
});
