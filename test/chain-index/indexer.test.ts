import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { Registry } from "prom-client";
import { createTestClient, http } from "viem";
import type { Devnet } from "../../src/chain/devnet.js";
import { rpcLogSource } from "../../src/chain/log-source.js";
import type { LogSource } from "../../src/services/index.js";
import { HOUR } from "../../src/services/signals/constants.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { plainTransfer, settleOnChain } from "../helpers/settle-on-chain.js";
import { acquireDevnet } from "../helpers/shared-devnet.js";
import { addressOf, catchUp, devnetIndexer, keyOf, listOnChain, summaryOf } from "./setup.js";

/**
 * Decision 0052 on the devnet: settlements read from the chain's logs, exact per listing and
 * payer, attributed by price on a shared payTo, robust to reorganisation, crashes and a second indexer.
 */
let ctx: TestContext;
let devnet: Devnet;
let ids: Record<"solo" | "sharedA" | "sharedB" | "ghost" | "self", number>;
const payTo = { solo: "0x" + "a1".repeat(20), shared: "0x" + "b2".repeat(20), ghost: "0x" + "c3".repeat(20) };

beforeAll(async () => {
  ctx = await createTestContext();
  ctx.clock.set(new Date());
  devnet = await acquireDevnet();
  const [solo, sharedA, sharedB, ghost, self] = await listOnChain(ctx, [
    { url: "https://solo.example/q", payTo: payTo.solo, priceUsdc: "0.001" },
    { url: "https://shared.example/a", payTo: payTo.shared, priceUsdc: "0.001" },
    { url: "https://shared.example/b", payTo: payTo.shared, priceUsdc: "0.002" },
    { url: "https://ghost.example/q", payTo: payTo.ghost, priceUsdc: "0.001" },
    { url: "https://self.example/q", payTo: addressOf(devnet, 8), priceUsdc: "0.001" },
  ]);
  ids = { solo: solo!, sharedA: sharedA!, sharedB: sharedB!, ghost: ghost!, self: self! };
  // 7 settlements from 3 wallets to the solo payTo, and a plain transfer that is no settlement.
  for (const n of [0, 1, 2, 0, 1, 2, 0]) await settleOnChain(devnet, keyOf(devnet, n), payTo.solo, 1000n);
  await plainTransfer(devnet, keyOf(devnet, 3), payTo.solo, 1000n);
  for (const value of [1000n, 1000n, 2000n, 5000n]) await settleOnChain(devnet, keyOf(devnet, 4), payTo.shared, value);
  for (let i = 0; i < 3; i++) await settleOnChain(devnet, keyOf(devnet, 8), addressOf(devnet, 8), 1000n);
  await catchUp(devnetIndexer(ctx, devnet));
}, 120_000);

afterAll(async () => {
  await devnet?.stop();
  await ctx?.close();
});

const rowCount = async () => Number((await sql<{ n: string }>`select count(*) as n from chain_settlements`.execute(ctx.db.db)).rows[0]!.n);

describe("the chain indexer", () => {
  it("counts N settlements from K wallets exactly: 7 calls, 3 payers; a plain transfer is not one", async () => {
    const s = await summaryOf(ctx, ids.solo);
    expect(s).toMatchObject({
      attribution: "listing",
      calls_30d: 7,
      calls_24h: 7,
      distinct_payers_30d: 3,
      volume_usdc_30d: "0.007",
      known_facilitator_share: 1,
    });
    expect(s.used_30d).toBe(true);
    const report = await ctx.services.reports.preflight("https://solo.example/q");
    expect(report.metadata).toMatchObject({ settled_calls_30d: 7, distinct_payers_30d: 3 });
    const forensics = await ctx.services.reports.forensics("https://solo.example/q");
    expect(forensics.evidence.settlements?.daily).toHaveLength(30);
    expect(forensics.evidence.settlements?.daily.at(-1)).toMatchObject({ calls: 7, volume_usdc: "0.007" });
  });

  it("attributes a shared payTo's settlements by price, and keeps what no price explains at the payTo", async () => {
    expect(await summaryOf(ctx, ids.sharedA)).toMatchObject({
      attribution: "amount",
      calls_30d: 2,
      pay_to: { calls_30d: 4, unattributed_calls_30d: 1, listings: 2, hosts: 1 },
    });
    expect(await summaryOf(ctx, ids.sharedB)).toMatchObject({ attribution: "amount", calls_30d: 1, volume_usdc_30d: "0.002" });
  });

  it("gives listings that share a price that price's settlements only, never another price's", async () => {
    const payTo = "0x" + "e5".repeat(20);
    const [twinA, twinB, other] = await listOnChain(ctx, [
      { url: "https://twins.example/a", payTo, priceUsdc: "0.003" },
      { url: "https://twins.example/b", payTo, priceUsdc: "0.003" },
      { url: "https://twins.example/c", payTo, priceUsdc: "0.02" },
    ]);
    for (const value of [3000n, 3000n, 5000n]) await settleOnChain(devnet, keyOf(devnet, 6), payTo, value);
    await catchUp(devnetIndexer(ctx, devnet));
    for (const id of [twinA!, twinB!])
      expect(await summaryOf(ctx, id)).toMatchObject({ attribution: "pay_to", calls_30d: 2, pay_to: { calls_30d: 3, unattributed_calls_30d: 1 } });
    expect(await summaryOf(ctx, other!)).toMatchObject({ attribution: "amount", calls_30d: 0, used_30d: false });
  });

  it("reads a payTo paid only by itself as self-dealing, not use", async () => {
    expect(await summaryOf(ctx, ids.self)).toMatchObject({ calls_30d: 3, self_dealing: true, used_30d: false });
    const [verdict] = await ctx.db.db.selectFrom("signal_snapshots").select("warnings").where("listing_id", "=", ids.self).execute();
    expect(verdict!.warnings).toContain("self_dealing");
  });

  it("makes an unpaid, healthy listing a ghost once listed the window, and a paid one never", async () => {
    const [fresh] = await listOnChain(ctx, [{ url: "https://fresh.example/q", payTo: payTo.ghost, priceUsdc: "0.003" }], 0);
    await catchUp(devnetIndexer(ctx, devnet, { ghostListedHours: 1 }));
    const delist = async (id: number) =>
      (await ctx.db.db.selectFrom("signal_snapshots").select("delist_reasons").where("listing_id", "=", id).executeTakeFirstOrThrow()).delist_reasons;
    await ctx.services.verdicts.recompute();
    expect(await delist(ids.ghost)).toEqual(["ghost_listing"]);
    expect(await delist(fresh!)).toEqual([]);
    expect(await delist(ids.solo)).toEqual([]);
    const feed = await ctx.services.delist.snapshot({ scope: "ghost", limit: 100 });
    expect(feed.should_delist.find((f) => f.url === "https://ghost.example/q")).toMatchObject({
      reasons: ["ghost_listing"],
      cdp_l30d_calls: 0,
      chain: { settled_calls_30d: 0, distinct_payers_30d: 0, last_settled_at: null, self_dealing: false },
    });
    expect(feed.should_delist.map((f) => f.url)).not.toContain("https://solo.example/q");
    ctx.clock.advance(HOUR + 1000);
    await ctx.services.verdicts.recompute();
    expect(await delist(fresh!)).toEqual(["ghost_listing"]);
    ctx.clock.advance(-(HOUR + 1000));
  });

  it("leaves no phantom settlement after a reorganisation", async () => {
    const test = createTestClient({ mode: "anvil", chain: devnet.chain, transport: http(devnet.rpcUrl) });
    const snapshot = await test.snapshot();
    const { tx } = await settleOnChain(devnet, keyOf(devnet, 5), payTo.solo, 1000n);
    const indexer = devnetIndexer(ctx, devnet);
    await catchUp(indexer);
    expect((await summaryOf(ctx, ids.solo)).calls_30d).toBe(8);
    await test.revert({ id: snapshot });
    await test.mine({ blocks: 3 });
    await catchUp(indexer);
    expect((await summaryOf(ctx, ids.solo)).calls_30d).toBe(7);
    expect(await ctx.db.db.selectFrom("chain_settlements").select("tx_hash").where("tx_hash", "=", tx.toLowerCase()).execute()).toEqual([]);
  });

  it("resumes after a crash mid-backfill without a gap or a double count", async () => {
    await sql`delete from chain_settlements`.execute(ctx.db.db);
    await sql`update chain_payees set from_block = null, synced_to = null`.execute(ctx.db.db);
    const real = rpcLogSource(devnet.publicClient, devnet.usdcAddress, 1000);
    let reads = 0;
    // The second range's read dies: the first range is stored with its cursor, nothing after it.
    const crashing: LogSource = { ...real, transfers: (...args) => (++reads > 1 ? Promise.reject(new Error("killed")) : real.transfers(...args)) };
    await expect(catchUp(devnetIndexer(ctx, devnet, { source: crashing }))).rejects.toThrow("killed");
    const { rows } = await sql<{ synced: string }>`select max(synced_to)::text as synced from chain_payees`.execute(ctx.db.db);
    expect(BigInt(rows[0]!.synced)).toBeLessThan(await devnet.publicClient.getBlockNumber());
    await catchUp(devnetIndexer(ctx, devnet));
    expect(await rowCount()).toBe(17);
    expect((await summaryOf(ctx, ids.solo)).calls_30d).toBe(7);
  });

  it("says how far behind it is on /metrics", async () => {
    const metrics = new Registry();
    await createTestClient({ mode: "anvil", chain: devnet.chain, transport: http(devnet.rpcUrl) }).mine({ blocks: 1 });
    await catchUp(devnetIndexer(ctx, devnet, { metrics }));
    const text = await metrics.metrics();
    expect(text).toMatch(/lookout_chain_index_lag_blocks 0/);
    expect(text).toMatch(/lookout_chain_log_ranges_total [1-9]/);
  });

  it("writes a busy range in parts, so memory holds a part's rows, with no gap", async () => {
    await sql`delete from chain_settlements`.execute(ctx.db.db);
    await sql`update chain_payees set from_block = null, synced_to = null`.execute(ctx.db.db);
    await catchUp(devnetIndexer(ctx, devnet, { maxRowsPerWrite: 2 }));
    expect(await rowCount()).toBe(17);
    expect(await summaryOf(ctx, ids.sharedA)).toMatchObject({ calls_30d: 2, pay_to: { calls_30d: 4 } });
  });

  it("never double counts with two indexers at once", async () => {
    await sql`delete from chain_settlements`.execute(ctx.db.db);
    await sql`update chain_payees set from_block = null, synced_to = null`.execute(ctx.db.db);
    await Promise.all([catchUp(devnetIndexer(ctx, devnet)), catchUp(devnetIndexer(ctx, devnet))]);
    expect(await rowCount()).toBe(17);
    expect(await summaryOf(ctx, ids.solo)).toMatchObject({ calls_30d: 7, distinct_payers_30d: 3 });
  });
});
