import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import type { Address } from "viem";
import type { Devnet } from "../../src/chain/devnet.js";
import { chainReader } from "../../src/chain/chain-reader.js";
import { testUsdcAbi } from "../../src/chain/token-abi.js";
import type { DemoFleet } from "../../src/demo/index.js";
import { createCanary } from "../../src/services/delivery/index.js";
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

describe("the paid checker on the demo fleet (devnet, real settlement)", () => {
  it("pays each eligible listing once, never a decoy or above the ceiling, and spends on chain exactly what its ledger says, within the budget", async () => {
    const canary = createCanary({
      db: ctx.db,
      clock: ctx.clock,
      log: ctx.log,
      chain: chainReader(devnet.publicClient),
      canary: { privateKey: devnet.canary.privateKey, budgetUsdcPerDay: "0.2", maxPriceUsdc: "0.01", intervalHours: 24, hostChecksPerDay: 1000 },
      network: devnet.network,
      allowPrivateTargets: true,
      publicBaseUrl: ctx.config.publicBaseUrl,
      preflight: (t) => ctx.services.reports.preflight(t),
    });
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
    expect(snap.delivery).toMatchObject({ outcome: "delivered", checks_30d: 1, delivered_30d: 1, tx: delivered[0]!.tx });
  }, 180_000);
});
