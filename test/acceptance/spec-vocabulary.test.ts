import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { BLACKLIST_REASONS, FORENSICS_CODES, MATCH_REASONS, SPEC_PREFLIGHT_CODES } from "@x402-lookout/contracts/codes";
import type { Devnet } from "../../src/chain/devnet.js";
import type { DemoFleet } from "../../src/demo/index.js";
import { createApp, type App } from "../../src/http/app.js";
import type { AnyRouteDef } from "../../src/http/registry.js";
import { alternativesRoute } from "../../src/http/routes/catalog/alternatives.js";
import { decoysRoute } from "../../src/http/routes/catalog/decoys.js";
import { delistFeedDiffRoute } from "../../src/http/routes/delist/delist-feed-diff.js";
import { delistFeedRoute } from "../../src/http/routes/delist/delist-feed.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { forensicsRoute } from "../../src/http/routes/preflight/forensics.js";
import { preflightBatchRoute } from "../../src/http/routes/preflight/preflight-batch.js";
import { preflightRoute } from "../../src/http/routes/preflight/preflight.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { startProbedDemoFleet } from "../helpers/demo-fleet.js";
import { acquireDevnet } from "../helpers/shared-devnet.js";
import { body } from "../helpers/http.js";
import { specParsers } from "./spec-parsers.js";

/**
 * Issue 37 item 6 (decision 0045): a client generated from the spec parses `warnings`,
 * recommended_action, match_reason and blacklist reasons as closed enumerations. Strict parsers
 * built from the spec's enumerations (test/fixtures/spec-enumerations.json) read every answer the
 * demo fleet gives on the paid routes, for every demo endpoint.
 */
const SPEC = JSON.parse(readFileSync(new URL("../fixtures/spec-enumerations.json", import.meta.url), "utf8")) as Record<string, { values: string[] }>;
const strict = specParsers(SPEC);
const unpaid = (def: AnyRouteDef, path: string): AnyRouteDef => ({ ...def, id: `${def.id}-unpaid`, path, price: null, product: undefined });
const ROUTES = [
  unpaid(preflightRoute, "/u/preflight"),
  unpaid(preflightBatchRoute, "/u/batch"),
  unpaid(forensicsRoute, "/u/forensics"),
  unpaid(decoysRoute, "/u/decoys"),
  unpaid(alternativesRoute, "/u/alternatives"),
  unpaid(delistFeedRoute, "/u/delist-feed"),
  unpaid(delistFeedDiffRoute, "/u/delist-feed-diff"),
];

let devnet: Devnet;
let fleet: DemoFleet;
let ctx: TestContext;
let app: App;

const request = (path: string, payload: unknown, ip: string) =>
  app.request(path, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": ip }, body: JSON.stringify(payload) });

async function post(path: string, payload: unknown, ip = "203.0.113.9") {
  const res = await request(path, payload, ip);
  expect(res.status, `${path} ${JSON.stringify(payload)}`).toBe(200);
  return body(res);
}

/** Parses with the strict parser, failing with the path and the issues when it refuses. */
function accept(parser: z.ZodType, answer: unknown, what: string) {
  const r = parser.safeParse(answer);
  expect(r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`), what).toEqual([]);
}

beforeAll(async () => {
  ctx = await createTestContext({ ALLOW_PRIVATE_TARGETS: "true", TRUST_PROXY: "true" });
  devnet = await acquireDevnet();
  fleet = await startProbedDemoFleet(ctx, devnet);
  app = createApp({ ctx, routes: [...productRoutes, ...ROUTES] });
}, 180_000);

afterAll(async () => {
  await fleet?.stop();
  await devnet?.stop();
  await ctx?.close();
});

describe("the spec's enumerations", () => {
  it("are the lists codes.ts keeps explicitly", () => {
    expect(SPEC_PREFLIGHT_CODES).toEqual(SPEC.preflight_warnings!.values);
    expect(FORENSICS_CODES).toEqual(SPEC.forensics_warnings!.values);
    expect(BLACKLIST_REASONS).toEqual(SPEC.blacklist_reasons!.values);
    expect(MATCH_REASONS).toEqual(SPEC.match_reason!.values);
  });
});

describe("/openapi.json", () => {
  it("types warnings with the spec's enumerations and reason_codes with every code", async () => {
    const doc = await body(await app.request("/openapi.json"));
    const schemas = doc.components.schemas as Record<string, { enum?: string[]; properties?: Record<string, { items?: { $ref?: string } }> }>;
    const itemsOf = (schema: string, field: string) => schemas[schema]!.properties![field]!.items!.$ref!.split("/").pop()!;
    for (const report of ["PreflightReport", "BatchElement"]) expect(schemas[itemsOf(report, "warnings")]!.enum).toEqual(SPEC.preflight_warnings!.values);
    expect(schemas[itemsOf("ForensicsReport", "warnings")]!.enum).toEqual([...SPEC.preflight_warnings!.values, ...SPEC.forensics_warnings!.values]);
    const all = schemas[itemsOf("PreflightReport", "reason_codes")]!.enum!;
    expect(all).toEqual(expect.arrayContaining([...SPEC.preflight_warnings!.values, ...SPEC.forensics_warnings!.values, "cloaking", "failing"]));
  });
});

describe("every paid answer for every demo endpoint parses as the spec's enumerations", () => {
  it("preflight, the trial, batch and forensics: warnings closed, every addition in reason_codes, the verdict judged on them", async () => {
    const additions = new Set<string>();
    for (const [i, e] of fleet.endpoints.entries()) {
      const paid = await post("/u/preflight", { url: e.url, method: e.method });
      accept(strict.preflight, paid, `preflight ${e.kind}`);
      // One client network per trial call: the trial's per-network share of a host is 5 a day (decision 0027).
      accept(strict.preflight, await post("/api/v1/preflight-trial", { url: e.url }, `198.51.${i}.7`), `trial ${e.kind}`);
      accept(strict.forensics, await post("/u/forensics", { url: e.url }), `forensics ${e.kind}`);
      for (const c of paid.reason_codes as string[]) if (!SPEC.preflight_warnings!.values.includes(c)) additions.add(c);
      expect(paid.warnings, e.kind).toEqual((paid.reason_codes as string[]).filter((c) => SPEC.preflight_warnings!.values.includes(c)));
    }
    // The fleet's quote traps fire additions: the parser above would refuse them in warnings.
    expect([...additions]).toEqual(expect.arrayContaining(["price_switch", "pay_to_mismatch"]));
    expect(strict.preflight.safeParse({ ...(await post("/u/preflight", { url: fleet.endpoints[0]!.url })), warnings: [...additions] }).success).toBe(false);
    // A batch takes at most 50 URLs: the fleet in batches.
    let answered = 0;
    for (let i = 0; i < fleet.endpoints.length; i += 50) {
      const batch = await post("/u/batch", { urls: fleet.endpoints.slice(i, i + 50).map((e) => e.url) });
      accept(strict.batch, batch, "batch");
      answered += batch.results.length;
    }
    expect(answered).toBe(new Set(fleet.endpoints.map((e) => e.url)).size);
  });

  it("the blacklist, alternatives and the delist feed", async () => {
    const decoys = await post("/u/decoys", {});
    accept(strict.decoys, decoys, "catalog/decoys");
    expect(decoys.entries.length).toBeGreaterThan(0);
    // 404 is the spec's answer when no healthy alternative exists; every 200 must parse.
    const answered: string[] = [];
    for (const payload of [...fleet.endpoints.map((e) => ({ url: e.url, limit: 10 })), { taskClass: "weather" }]) {
      const res = await request("/u/alternatives", payload, "203.0.113.9");
      expect([200, 404], JSON.stringify(payload)).toContain(res.status);
      if (res.status === 200) accept(strict.alternatives, await body(res), `alternatives ${JSON.stringify(payload)}`);
      if (res.status === 200) answered.push(JSON.stringify(payload));
    }
    expect(answered.length).toBeGreaterThan(0);
    accept(strict.delist, await post("/u/delist-feed", { scope: "all" }), "delist-feed");
    accept(strict.delist, await post("/u/delist-feed-diff", { scope: "all" }), "delist-feed-diff");
  });
});
