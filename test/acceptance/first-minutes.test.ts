import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Devnet } from "../../src/chain/devnet.js";
import { acquireDevnet } from "../helpers/shared-devnet.js";
import { createLocalFacilitator } from "../../src/chain/facilitator.js";
import { startDemoFleet, type DemoFleet } from "../../src/demo/index.js";
import { PROBE_TICK_MS } from "../../src/services/probes/constants.js";
import { startIngester } from "../helpers/start-ingester.js";
import { startProber } from "../helpers/start-prober.js";
import { createTestContext, type TestContext } from "../helpers/context.js";

let devnet: Devnet;
let fleet: DemoFleet;
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({ ALLOW_PRIVATE_TARGETS: "true" });
  ctx.clock.set(new Date());
  devnet = await acquireDevnet();
  const asset = { address: devnet.usdcAddress, name: "USDC", version: "2" };
  fleet = await startDemoFleet({ log: ctx.log, facilitator: createLocalFacilitator(devnet), network: devnet.network, payTo: devnet.payTo, asset });
}, 120_000);

afterAll(async () => {
  await fleet?.stop();
  await devnet?.stop();
  await ctx?.close();
});

describe("the first minutes of npm start, at the default cadence, on the injected clock", () => {
  it("reads the demo's always-500 and refused endpoints dead within 3 minutes of the first catalog poll, and never pay before", async () => {
    const dead = fleet.endpoints.filter((e) => e.kind === "dead_5xx" || e.kind === "dead_refused");
    expect(dead.map((e) => e.kind).sort()).toEqual(["dead_5xx", "dead_refused"]);
    const ingester = startIngester(ctx, [fleet.catalogUrl]);
    await ingester.runNow();
    await ingester.stop();
    const start = ctx.clock.now().getTime();
    const prober = startProber(ctx, { runAtStart: false });
    const deadAt = new Map<string, number>();
    // The prober's own tick, for three minutes.
    while (ctx.clock.now().getTime() - start <= 180_000 && deadAt.size < dead.length) {
      await prober.runNow();
      for (const e of dead) {
        if (deadAt.has(e.url)) continue;
        const r = await ctx.services.reports.preflight(e.url);
        expect(r.recommended_action, `${e.kind} at ${(ctx.clock.now().getTime() - start) / 1000} s`).not.toBe("pay");
        if (!r.ok) deadAt.set(e.url, ctx.clock.now().getTime() - start);
      }
      ctx.clock.advance(PROBE_TICK_MS);
    }
    await prober.stop();
    expect([...deadAt.values()].length).toBe(dead.length);
    for (const ms of deadAt.values()) expect(ms).toBeLessThanOrEqual(180_000);
  }, 120_000);
});
