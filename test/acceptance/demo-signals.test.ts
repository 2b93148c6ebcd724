import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Devnet } from "../../src/chain/devnet.js";
import { acquireDevnet } from "../helpers/shared-devnet.js";
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
  devnet = await acquireDevnet();
  fleet = await startProbedDemoFleet(ctx, devnet);
  app = createApp({ ctx, routes: productRoutes });
}, 120_000);

afterAll(async () => {
  await fleet?.stop();
  await devnet?.stop();
  await ctx?.close();
});

describe("the demo fleet through the whole pipeline", () => {
  it("gives every demo endpoint the codes its behaviour implies (reason_codes: additions included)", async () => {
    const mismatches: string[] = [];
    for (const e of fleet.endpoints) {
      if (e.kind === "flapping") continue; // its phase depends on the wall clock
      const report = await ctx.services.reports.preflight(e.url);
      // A listing whose codes only a paid check can see reads clean to the prober alone.
      const want = e.expected.evidence === "delivery" ? [] : shownAfterAnHour(e.expected.warnings).sort();
      // A cloaked quote's price codes follow the profile of its newest probe (expectations.ts).
      const allowed = new Set([...want, ...(e.expected.mayAlso ?? [])]);
      const got = [...report.reason_codes].sort();
      if (!want.every((w) => got.includes(w)) || !got.every((w) => allowed.has(w))) mismatches.push(`${e.kind} ${e.url}: want [${want}] got [${got}]`);
    }
    expect(mismatches).toEqual([]);
  });

  it("catches every quote trap: skip, and critical (ok false), the price switch included (decision 0035)", async () => {
    const traps = fleet.endpoints.filter((e) => e.expected.naked === "402_unlisted_terms");
    expect(traps.map((e) => e.kind).sort()).toEqual(["cloaked_quote", "non_usdc_asset", "pay_to_switch", "price_switch"]);
    for (const e of traps) {
      const report = await ctx.services.reports.preflight(e.url);
      expect(report, e.kind).toMatchObject({ ok: false, recommended_action: "skip" });
    }
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
