import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import type { Address } from "viem";
import type { Devnet } from "../../src/chain/devnet.js";
import { chainReader } from "../../src/chain/chain-reader.js";
import { testUsdcAbi } from "../../src/chain/token-abi.js";
import type { DemoFleet } from "../../src/demo/index.js";
import type { DbHandle } from "../../src/db/client.js";
import { openDatabase } from "../../src/db/client.js";
import { createCanary, type CanarySettings } from "../../src/services/delivery/index.js";
import { openCheck } from "../../src/services/delivery/ledger.js";
import { createCanaryAgent } from "../../src/canary/index.js";
import { markSigned } from "../../src/services/delivery/run-check.js";
import { reconcileChecks, CHECK_MAX_MS } from "../../src/services/delivery/reconcile.js";
import { HOUR } from "../../src/services/signals/constants.js";
import { startIngester } from "../helpers/start-ingester.js";
import { startProber } from "../helpers/start-prober.js";
import { startSwitchingMerchant } from "../helpers/switching-merchant.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { startProbedDemoFleet } from "../helpers/demo-fleet.js";
import { acquireDevnet } from "../helpers/shared-devnet.js";

let ctx: TestContext;
let devnet: Devnet;
let fleet: DemoFleet;

beforeAll(async () => {
  ctx = await createTestContext({ ALLOW_PRIVATE_TARGETS: "true" });
  devnet = await acquireDevnet();
  fleet = await startProbedDemoFleet(ctx, devnet);
}, 120_000);

afterAll(async () => {
  await fleet?.stop();
  await devnet?.stop();
  await ctx?.close();
});

const balanceOf = (address: string) =>
  devnet.publicClient.readContract({ address: devnet.usdcAddress, abi: testUsdcAbi, functionName: "balanceOf", args: [address as Address] });

const agentOf = () =>
  createCanaryAgent(ctx.services, {
    privateKey: devnet.canary.privateKey,
    network: devnet.network,
    publicBaseUrl: ctx.config.publicBaseUrl,
    allowPrivate: true,
  });

/** A canary process's checker: the agent that pays and the service that decides, on `db`. */
function canaryOn(db: DbHandle, limits: Partial<CanarySettings>) {
  const agent = agentOf();
  const canary = createCanary({
    db,
    clock: ctx.clock,
    log: ctx.log,
    chain: chainReader(devnet.publicClient),
    canary: { budgetUsdcPerDay: "0.2", maxPriceUsdc: "0.01", intervalHours: 24, hostChecksPerDay: 1000, ...limits },
    network: devnet.network,
    payer: agent.payer,
  });
  return { tick: () => canary.tick(), close: () => agent.close() };
}

const checksOf = (url: string) => ctx.db.db.selectFrom("delivery_checks").selectAll().where("url", "=", url).orderBy("started_at").execute();

describe("the paid checker on the demo fleet (devnet, real settlement)", () => {
  it("pays each eligible listing once, never a decoy or above the ceiling, and spends on chain exactly what its ledger says, within the budget", async () => {
    const canary = canaryOn(ctx.db, { budgetUsdcPerDay: "0.2" });
    const before = await balanceOf(devnet.canary.address);
    for (let i = 0; i < 40; i++) if ((await canary.tick()).checked === 0) break;
    await canary.close();
    const checks = await ctx.db.db.selectFrom("delivery_checks").selectAll().execute();
    const spent = checks.reduce((sum, c) => sum + BigInt(c.spent_atomic), 0n);
    expect(before - (await balanceOf(devnet.canary.address))).toBe(spent);
    expect(spent).toBeGreaterThan(0n);
    expect(spent).toBeLessThanOrEqual(200_000n);
    const byUrl = new Map(checks.map((c) => [c.url, c]));
    for (const e of fleet.endpoints) {
      const c = byUrl.get(e.url);
      if (e.kind === "decoy" || e.kind === "suspicious_price") expect(BigInt(c?.spent_atomic ?? 0)).toBe(0n);
      if (e.kind === "healthy" && Number(e.price) <= 0.01) expect(c?.outcome, `${e.url} ${c?.reason}`).toBe("delivered");
    }
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from delivery_checks where state <> 'done'`.execute(ctx.db.db);
    expect(rows[0]!.n).toBe(0);
    // What delivered reads delivered: its summary is on the snapshot and no delivery code fired.
    const delivered = checks.filter((c) => c.outcome === "delivered");
    expect(delivered.length).toBeGreaterThan(10);
    const report = await ctx.services.reports.forensics({ url: delivered[0]!.url });
    expect(report.reason_codes).not.toContain("paid_no_delivery");
    const snap = await ctx.db.db
      .selectFrom("signal_snapshots")
      .select(["delivery", "warnings"])
      .where("listing_id", "=", delivered[0]!.listing_id!)
      .executeTakeFirstOrThrow();
    const evidence = delivered[0]!.evidence as { challenge: { requirement_digest: string | null; status: number }; answer: { status: number } };
    expect(evidence.challenge.status).toBe(402);
    expect(evidence.challenge.requirement_digest).toMatch(/\S{16,}/);
    expect(evidence.answer.status).toBe(200);
    expect(snap.delivery).toMatchObject({ outcome: "delivered", checks_30d: 1, delivered_30d: 1, tx: delivered[0]!.tx });
  }, 180_000);

  it("flags every merchant that takes the money and fails within two checks, and never a merchant that delivers", async () => {
    const canary = canaryOn(ctx.db, { intervalHours: 1 });
    ctx.clock.advance(HOUR + 60_000); // the second check of each listing falls due
    for (let i = 0; i < 60; i++) if ((await canary.tick()).checked === 0) break;
    await canary.close();
    const delivery = fleet.endpoints.filter((e) => e.expected.evidence === "delivery");
    expect(delivery.map((e) => e.kind).sort()).toEqual(["paid_401", "paid_500", "paid_canned", "paid_empty", "paid_off_schema", "paid_ok"]);
    for (const e of fleet.endpoints) {
      const codes = (await ctx.services.reports.preflight(e.url)).reason_codes;
      const wanted = e.expected.warnings.filter((w) => w === "paid_no_delivery" || w === "invalid_output");
      expect(
        codes.filter((c) => c === "paid_no_delivery" || c === "invalid_output"),
        `${e.kind} ${e.url}`,
      ).toEqual(wanted);
    }
  }, 180_000);

  it("pays nothing to a quote that asks more than was checked: above the ceiling, or above the price the prober saw", async () => {
    const merchant = await startSwitchingMerchant(devnet, devnet.payTo);
    try {
      fleet.addListing({ url: merchant.url, serviceName: "Quote Switcher", price: "0.001", payTo: devnet.payTo });
      const ingester = startIngester(ctx, [fleet.catalogUrl]);
      await ingester.runNow();
      await ingester.stop();
      const prober = startProber(ctx, { runAtStart: false });
      for (let i = 0; i < 3; i++) {
        await prober.runNow();
        ctx.clock.advance(10 * 60_000);
      }
      await prober.stop();
      const canary = canaryOn(ctx.db, { intervalHours: 0.01, budgetUsdcPerDay: "5" });
      const before = await balanceOf(devnet.canary.address);
      const from = ctx.clock.now();
      for (const price of ["0.02", "0.005"]) {
        merchant.terms.price = price;
        ctx.clock.advance(HOUR);
        const seen = (await checksOf(merchant.url)).length;
        for (let i = 0; i < 40 && (await checksOf(merchant.url)).length === seen; i++) await canary.tick();
      }
      await canary.close();
      const checks = await checksOf(merchant.url);
      expect(checks.map((c) => [c.outcome, c.reason])).toEqual([
        ["skipped", "quote"],
        ["skipped", "quote"],
      ]);
      expect(checks.every((c) => c.auth_nonce === null && c.spent_atomic === "0")).toBe(true);
      // Whatever else it paid meanwhile (the fleet's listings fell due again), the chain agrees with the ledger.
      const others = await ctx.db.db.selectFrom("delivery_checks").select("spent_atomic").where("started_at", ">", from).execute();
      expect(before - (await balanceOf(devnet.canary.address))).toBe(others.reduce((sum, c) => sum + BigInt(c.spent_atomic), 0n));
    } finally {
      await merchant.stop();
    }
  }, 120_000);

  it("completes a check interrupted between settlement and the answer from the chain: the spend counts, nothing is judged", async () => {
    const e = fleet.endpoints.find((x) => x.kind === "healthy" && x.method === "GET" && Number(x.price) <= 0.01)!;
    const listing = await ctx.db.db.selectFrom("listings").select(["id", "host"]).where("url", "=", e.url).executeTakeFirstOrThrow();
    const limits = { budgetAtomic: 1_000_000n, maxPriceAtomic: 10_000n, intervalMs: 0, hostChecksPerDay: 1000 };
    ctx.clock.advance(HOUR);
    const opened = await openCheck(
      ctx.db.db,
      { listingId: listing.id, url: e.url, method: e.method, host: listing.host },
      10_000n,
      limits,
      "crashed",
      ctx.clock.now(),
    );
    const id = (opened as { id: string }).id;
    const agent = agentOf();
    const res = await agent.payer(10_000n, (sig) => markSigned(ctx.db.db, id, sig)).fetch(e.url);
    await agent.close();
    expect(res.status).toBe(200); // paid and answered; the process "dies" before recording it
    ctx.clock.advance(CHECK_MAX_MS + 1000);
    // The reconciler runs every tick; a settlement the node has not shown yet is read at the next.
    const rowOf = () => ctx.db.db.selectFrom("delivery_checks").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    for (let i = 0; i < 10 && (await rowOf()).state !== "done"; i++) {
      await reconcileChecks({ db: ctx.db.db, chain: chainReader(devnet.publicClient), log: ctx.log }, ctx.clock.now());
      await new Promise((r) => setTimeout(r, 300));
    }
    const row = await rowOf();
    expect(row).toMatchObject({ state: "done", outcome: "interrupted", spent_atomic: e.amount });
    expect(row.tx).toMatch(/^0x[0-9a-f]{64}$/);
  }, 60_000);

  it("two canary processes share one budget: together they never hold or spend more", async () => {
    ctx.clock.advance(25 * HOUR); // yesterday's spend leaves the rolling day
    const second = ctx.db.dialect === "postgres" ? await openDatabase({ databaseUrl: (ctx.db as { url?: string }).url! }) : ctx.db;
    const [a, b] = [canaryOn(ctx.db, { budgetUsdcPerDay: "0.004", intervalHours: 1 }), canaryOn(second, { budgetUsdcPerDay: "0.004", intervalHours: 1 })];
    const before = await balanceOf(devnet.canary.address);
    for (let i = 0; i < 6; i++) await Promise.all([a.tick(), b.tick()]);
    await Promise.all([a.close(), b.close()]);
    if (second !== ctx.db) await second.close();
    const since = new Date(ctx.clock.now().getTime() - 24 * HOUR);
    const checks = await ctx.db.db.selectFrom("delivery_checks").selectAll().where("started_at", ">", since).execute();
    const spent = checks.reduce((sum, c) => sum + BigInt(c.spent_atomic), 0n);
    expect(spent).toBeGreaterThan(0n);
    expect(spent).toBeLessThanOrEqual(4_000n);
    expect(before - (await balanceOf(devnet.canary.address))).toBe(spent);
    expect(checks.some((c) => c.reason === "budget")).toBe(true);
  }, 120_000);
});
