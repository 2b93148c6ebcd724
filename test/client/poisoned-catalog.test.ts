import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLookoutClient, type LookoutClient } from "@x402-lookout/client";
import type { DemoEndpoint, DemoFleet } from "../../src/demo/index.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { recomputeSnapshots, recomputeVerdicts } from "../../src/services/evidence/index.js";
import { startCatalogServer, type CatalogServer } from "../catalog/helpers/catalog-server.js";
import { ingestOnce } from "../catalog/helpers/ingest.js";
import { v2Item } from "../catalog/helpers/items.js";
import { startProbedDemoFleet } from "../helpers/demo-fleet.js";
import { guardedAgents } from "../helpers/guarded-agents.js";
import { startPaidService, type PaidService } from "../helpers/paid-service.js";

/**
 * Issue 34's poisoned second catalog, paid for real (decision 0032): one item in a catalog of
 * its own lists an honest demo endpoint's URL under an attacker's payTo. Agents on @x402/fetch
 * and @x402/axios 2.11, each guarded by lookoutPolicy, still pay the honest endpoint on the
 * devnet, and the verdict names the poisoned source's claim as its own.
 */
const AGENT = 4;
const LOOKOUT_PAYER = 5;
const ATTACKER = "0x" + "bad0".repeat(10);
let svc: PaidService;
let fleet: DemoFleet;
let lookout: LookoutClient;
let poisoned: CatalogServer;
let honest: DemoEndpoint;

beforeAll(async () => {
  svc = await startPaidService({ routes: productRoutes, env: { ALLOW_PRIVATE_TARGETS: "true" } });
  fleet = await startProbedDemoFleet(svc.ctx, svc.devnet);
  honest = fleet.endpoints.find((e) => e.kind === "healthy" && e.method === "GET")!;
  const signer = privateKeyToAccount(svc.devnet.demoAccounts[LOOKOUT_PAYER]!.privateKey);
  lookout = createLookoutClient({ baseUrl: svc.url, signer, now: () => svc.ctx.clock.now().getTime() });
  // The attacker's catalog: the honest URL, its price and network, someone else's wallet.
  const item = { url: honest.url, payTo: ATTACKER, amount: honest.amount, network: svc.devnet.network, asset: svc.devnet.usdcAddress };
  poisoned = await startCatalogServer([v2Item({ ...item, method: honest.method })]);
  await ingestOnce(svc.ctx, [poisoned.url]);
  await recomputeSnapshots(svc.ctx);
  await recomputeVerdicts(svc.ctx.db, svc.ctx.clock.now());
}, 240_000);
afterAll(async () => {
  await poisoned?.close();
  await fleet?.stop();
  await svc?.close();
});

/** The two official clients, guarded (test/helpers/guarded-agents.ts). */
function agents() {
  const { decisions, viaFetch, viaAxios } = guardedAgents(svc, lookout, AGENT, { unknown: "block" });
  return { decisions, fetch: viaFetch, axios: viaAxios };
}

describe("a poisoned second catalog", () => {
  it("is recorded as that source's word: the listing and its verdict keep the endpoint's own terms", async () => {
    const listing = await svc.ctx.db.db.selectFrom("listings").select(["id", "pay_to"]).where("url", "=", honest.url).executeTakeFirstOrThrow();
    const sources = await svc.ctx.db.db.selectFrom("listing_sources").select(["source_id", "pay_to"]).where("listing_id", "=", listing.id).execute();
    expect(sources.map((s) => s.pay_to?.toLowerCase()).sort()).toEqual([ATTACKER, honest.payTo.toLowerCase()].sort());
    expect(listing.pay_to?.toLowerCase()).toBe(honest.payTo.toLowerCase());

    const report = await lookout.preflight({ url: honest.url, method: honest.method });
    expect(report.reason_codes).toContain("source_disagrees");
    expect(report.reason_codes).not.toContain("pay_to_mismatch");
    expect(report.reason_codes).not.toContain("pay_to_changed");
    expect(report).toMatchObject({ ok: true, recommended_action: "pay" });

    const snapshot = await svc.ctx.services.verdictFeed.snapshot();
    const entry = snapshot.entries.find((e) => e.url === honest.url);
    expect(entry).toMatchObject({ ok: true, action: "pay" });
    expect(entry!.pay_to?.toLowerCase()).toBe(honest.payTo.toLowerCase());
  });

  it("leaves the honest endpoint payable by guarded @x402/fetch and @x402/axios agents on the devnet", async () => {
    const before = await svc.balanceOf(svc.payer(AGENT));
    const agent = agents();
    const viaFetch = await agent.fetch(honest.url);
    expect(viaFetch.status).toBe(200);
    const viaAxios = await agent.axios(honest.url);
    expect(viaAxios.status).toBe(200);
    expect(agent.decisions).toMatchObject([
      { url: honest.url, stage: "quote", decision: "allow" },
      { url: honest.url, stage: "quote", decision: "allow" },
    ]);
    for (const d of agent.decisions) expect(d.report!.reason_codes).toEqual(expect.arrayContaining(["source_disagrees"]));
    expect(before - (await svc.balanceOf(svc.payer(AGENT)))).toBe(2n * BigInt(honest.amount));
  });
});
