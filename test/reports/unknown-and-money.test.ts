import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerSchema } from "@x402-lookout/contracts/answer-schema";
import { forensicsContract } from "@x402-lookout/contracts/preflight/forensics";
import { preflightBatchContract } from "@x402-lookout/contracts/preflight/preflight-batch";
import { preflightTrialContract } from "@x402-lookout/contracts/preflight/preflight-trial";
import { createApp, type App } from "../../src/http/app.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { HOUR, MINUTE } from "../../src/services/signals/constants.js";
import { recompute, seedListing, seedProbes, series } from "../helpers/catalog-fixtures.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { body } from "../helpers/http.js";

let ctx: TestContext;
let app: App;
let target: Server;
let failing: string;
let refused: string;
/** No number in an answer has more than 6 decimal places (money) — float artefacts have 15 or more. */
const NO_FLOAT_ARTEFACT = /\d\.\d{7,}/;

const trial = async (url: string) =>
  body(await app.request("/api/v1/preflight-trial", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url }) }));

beforeAll(async () => {
  ctx = await createTestContext();
  // Responses are checked against the OpenAPI schemas on the way out.
  app = createApp({ ctx, routes: productRoutes, validateResponses: true });
  target = createServer((_req, res) => void res.writeHead(500).end("down"));
  await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
  failing = `http://127.0.0.1:${(target.address() as AddressInfo).port}/fails`;
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
  refused = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/refused`;
  await new Promise((r) => closed.close(r));

  const healthy = series(HOUR, 10 * MINUTE, () => ({ latency: 100 }));
  // A provider group priced 0.1 and 0.2: its median and p90 are float artefacts unrounded.
  for (const [path, price] of [
    ["a", "0.1"],
    ["b", "0.2"],
  ] as const)
    await seedProbes(ctx, await seedListing(ctx, { url: `https://g.example/${path}`, service: "Gee", provider: "0xg", price }), healthy);
  // One service sold by two providers at 0.3 and 0.6 (median 0.44999999999999996 unrounded) and resold at 2.
  for (const [host, provider, price] of [
    ["p1", "0xp1", "0.3"],
    ["p2", "0xp2", "0.6"],
    ["r", "0xr", "2"],
  ] as const)
    await seedProbes(ctx, await seedListing(ctx, { url: `https://${host}.example/s`, service: "Shared", provider, price }), healthy);
  await seedListing(ctx, { url: "https://zeros.example/x", service: "Zeros", provider: "0xz", price: "0.0100" });
  await recompute(ctx);
});
afterAll(async () => {
  target?.close();
  await ctx?.close();
});

describe("unknown values are null", () => {
  it("an unknown URL whose live probe failed has no price: null, and the typed client and MCP accept the answer", async () => {
    for (const url of [failing, refused]) {
      const r = await trial(url);
      expect(r.warnings).toContain("unknown_endpoint");
      expect(r.metadata).toMatchObject({ price_usdc: null, uptime_1h_pct: null, is_active: false });
      expect(r.evidence.price_amount_usdc).toBeNull();
      // The client and the MCP tools validate answers with the route's answer schema.
      expect(answerSchema(preflightTrialContract).safeParse(r).success).toBe(true);
    }
  });

  it("batch elements of unknown URLs carry null prices too", async () => {
    const env = await ctx.services.reports.batch([refused, "https://g.example/a"]);
    expect(env.results.map((r) => r.metadata.price_usdc)).toEqual([null, "0.1"]);
    expect(preflightBatchContract.response.safeParse(env).success).toBe(true);
  });

  it("forensics of an unknown URL says nothing is known beyond its live probe", async () => {
    const f = await ctx.services.reports.forensics(failing);
    expect(forensicsContract.response.safeParse(f).success).toBe(true);
    expect(f.warnings).toContain("unknown_endpoint");
    expect(f.metadata.price_usdc).toBeNull();
    // Its one live probe counts alike in every window and in the bucket of its hour; uptime is the
    // monitoring history's, so none from one live probe, in metadata and uptime alike.
    expect(f.evidence).toMatchObject({ probes_1h: 1, healthy_1h: 0, probes_7d: 1, healthy_7d: 0 });
    expect(f.uptime).toMatchObject({ probes_7d: 1, healthy_7d: 0, errors_7d: 1, uptime_7d_pct: null, uptime_1h_pct: null });
    expect(f.uptime.avg_latency_1h_ms).toBe(f.metadata.avg_latency_ms);
    expect(f.uptime.hourly).toHaveLength(168);
    expect(f.uptime.hourly.reduce((n, b) => n + b.probes, 0)).toBe(1);
    expect(f.uptime.hourly[0]).toMatchObject({
      probes: 1,
      healthy: 0,
      bucket: new Date(Math.floor(Date.parse(f.observed_at) / 3_600_000) * 3_600_000).toISOString(),
    });
    expect(f.latency).toEqual({ p50_ms: null, p90_ms: null, p99_ms: null, max_ms: null });
    expect(Object.values(f.status_codes).reduce((n, c) => n + c, 0)).toBe(1);
    // In no group, but the catalog it is compared with is not empty.
    expect(f.concentration).toMatchObject({ group_size: 0, concentration_pct: null, group_median_price_usdc: null, price_ratio_to_median: null });
    expect(f.concentration).toMatchObject({ raw_catalog_total: 6, effective_catalog_total: 6, catalog_total: 6 });
  });
});

describe("money is exact", () => {
  it("group prices in forensics have at most 6 places", async () => {
    const f = await ctx.services.reports.forensics("https://g.example/a");
    expect(f.concentration).toMatchObject({ group_median_price_usdc: 0.15, group_p90_price_usdc: 0.19, price_ratio_to_median: 0.667 });
    expect(JSON.stringify(f)).not.toMatch(NO_FLOAT_ARTEFACT);
  });

  it("a markup's reference price and its evidence are exact", async () => {
    const r = await trial("https://r.example/s");
    expect(r.warnings).toContain("proxy_markup");
    expect(r.metadata.proxy_markup).toMatchObject({ observed_price_usdc: 2, reference_price_usdc: 0.45, estimated_markup_ratio: 4.44 });
    expect(r.metadata.proxy_markup.evidence.join(" ")).toContain("is 0.45 USDC");
    expect(JSON.stringify(r)).not.toMatch(NO_FLOAT_ARTEFACT);
  });

  it("decimal strings have no trailing zeros", async () => {
    const r = await trial("https://zeros.example/x");
    expect(r.metadata.price_usdc).toBe("0.01");
    expect(r.evidence.price_amount_usdc).toBe("0.01");
  });
});
