import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDevnet, type Devnet } from "../../src/chain/devnet.js";
import type { DemoFleet } from "../../src/demo/index.js";
import { createApp, type App } from "../../src/http/app.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { PREFLIGHT_CODES } from "../../src/services/signals/constants.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { startProbedDemoFleet } from "../helpers/demo-fleet.js";
import { body } from "../helpers/http.js";

let devnet: Devnet;
let fleet: DemoFleet;
let ctx: TestContext;
let app: App;

/** The preflight codes a kind shows after one hour of probing (30-day codes need 30 days). */
const shownAfterAnHour = (codes: readonly string[]) => codes.filter((c) => (PREFLIGHT_CODES as readonly string[]).includes(c) && c !== "never_paid_zombie");

beforeAll(async () => {
  ctx = await createTestContext({ ALLOW_PRIVATE_TARGETS: "true" });
  devnet = await startDevnet({ log: ctx.log });
  fleet = await startProbedDemoFleet(ctx, devnet);
  app = createApp({ ctx, routes: productRoutes });
}, 120_000);

afterAll(async () => {
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
    const res = await app.request("/api/v1/preflight-trial", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: decoy.url }),
    });
    expect(await body(res)).toMatchObject({ ok: false, recommended_action: "skip" });
  });
});
