/**
 * npm run bench:canary — the paid checker (decision 0051) on a devnet with the demo fleet, real
 * settlement, the system clock. Prints checks per minute at a budget (BENCH_BUDGET_USDC, default 1),
 * the on-chain spend against the ledger's, the time from a merchant starting to fail after payment
 * to paid_no_delivery, and last the prober's throughput with the checker running against without
 * it over a seeded probe fleet (BENCH_HOSTS x BENCH_PER_HOST, default 20 x 250), same run.
 * PGlite by default, PostgreSQL with BENCH_DATABASE_URL.
 */
import { sql } from "kysely";
import type { Address } from "viem";
import { testUsdcAbi } from "../../src/chain/token-abi.js";
import { startProber } from "../../test/helpers/start-prober.js";
import { startSwitchingMerchant } from "../../test/helpers/switching-merchant.js";
import { openBenchDb } from "../lib/bench-db.js";
import { spawnFleet } from "../prober/fleet.js";
import { seedFleet } from "../prober/seed-fleet.js";
import { startCanaryStack } from "./stack.js";

const HOSTS = Number(process.env.BENCH_HOSTS ?? 20);
const PER_HOST = Number(process.env.BENCH_PER_HOST ?? 250);
const BUDGET = process.env.BENCH_BUDGET_USDC ?? "1";
const INTERVAL_HOURS = 0.01;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const db = await openBenchDb(process.env.BENCH_DATABASE_URL || undefined);
const stack = await startCanaryStack(db);
const probeFleet = await spawnFleet(HOSTS);
const merchant = await startSwitchingMerchant(stack.devnet, stack.devnet.payTo);
try {
  await seedFleet(db, probeFleet.port, HOSTS, PER_HOST);
  stack.fleet.addListing({ url: merchant.url, serviceName: "Turncoat Quotes", price: "0.001", payTo: stack.devnet.payTo, method: "GET" });
  await stack.refresh();
  const balance = () =>
    stack.devnet.publicClient.readContract({
      address: stack.devnet.usdcAddress,
      abi: testUsdcAbi,
      functionName: "balanceOf",
      args: [stack.devnet.canary.address as Address],
    });
  // One cycle of the seeded fleet, all of it due: probes per second from claim to last write.
  const probeCycle = async () => {
    await sql`update listings set next_probe_at = now() where source_url = 'http://bench.test/discovery'`.execute(db.db);
    const prober = startProber(stack.ctx, { runAtStart: false, tickMs: 3_600_000 });
    const s = await prober.runNow();
    await prober.stop();
    return s.done / (s.probeMs / 1000);
  };
  await probeCycle(); // first sight: confirmation probes and host checks, not the steady state
  const alone = await probeCycle();
  console.log(
    `database: ${db.label}; seeded probe fleet ${HOSTS * PER_HOST} endpoints; demo fleet ${stack.fleet.endpoints.length} listings; budget ${BUDGET} USDC/day, ceiling 0.01, interval ${INTERVAL_HOURS} h`,
  );

  const before = await balance();
  const canary = stack.canary({ budgetUsdcPerDay: BUDGET, intervalHours: INTERVAL_HOURS });
  const started = Date.now();
  let running = true;
  const loop = (async () => {
    while (running)
      if (
        (
          await canary.tick().catch((err: unknown) => {
            console.error("canary tick failed", err);
            return { checked: 0 };
          })
        ).checked === 0
      )
        await sleep(500);
  })();
  const withChecker = await probeCycle();
  // The turncoat: delivered once, then it takes the money and answers 500.
  const settled = async (outcome: string) =>
    Number(
      (await sql<{ n: number }>`select count(*)::int as n from delivery_checks where url = ${merchant.url} and outcome = ${outcome}`.execute(db.db)).rows[0]!.n,
    );
  console.log(`probe cycle with the checker running: ${withChecker.toFixed(0)} probes/s`);
  for (let waited = 0; (await settled("delivered")) === 0; waited += 200) {
    if (waited > 120_000)
      throw new Error(
        `the turncoat was never paid: ${JSON.stringify((await sql`select outcome, reason, evidence from delivery_checks where url = ${merchant.url}`.execute(db.db)).rows)}`,
      );
    await sleep(200);
  }
  merchant.terms.broken = true;
  const brokeAt = Date.now();
  const flagged = async () =>
    (
      await sql<{ w: string[] }>`select s.warnings as w from signal_snapshots s join listings l on l.id = s.listing_id where l.url = ${merchant.url}`.execute(
        db.db,
      )
    ).rows[0]?.w ?? [];
  while (!(await flagged()).includes("paid_no_delivery")) await sleep(100);
  const toFlag = (Date.now() - brokeAt) / 1000;
  running = false;
  await loop;
  await canary.close();
  const minutes = (Date.now() - started) / 60_000;
  const { rows } = await sql<{ paid: number; spent: string; skipped: number }>`select
      (count(*) filter (where auth_nonce is not null))::int as paid, coalesce(sum(spent_atomic), 0)::text as spent,
      (count(*) filter (where outcome = 'skipped'))::int as skipped from delivery_checks`.execute(db.db);
  const onChain = before - (await balance());
  const { paid, spent, skipped } = rows[0]!;
  console.log(
    `checker: ${paid} paid checks in ${minutes.toFixed(2)} min = ${(paid / minutes).toFixed(1)} checks/min (${skipped} skipped), ${Number(spent) / 1e6} USDC spent`,
  );
  console.log(
    `on chain: the checker's wallet paid ${Number(onChain) / 1e6} USDC; ledger ${Number(spent) / 1e6} USDC${onChain === BigInt(spent) ? "" : "  FAIL: they differ"}`,
  );
  console.log(`time from a merchant failing after payment to paid_no_delivery: ${toFlag.toFixed(1)} s (cadence ${INTERVAL_HOURS * 3600} s per listing)`);
  console.log(`probes/s without the checker ${alone.toFixed(0)}, with it ${withChecker.toFixed(0)}; ratio = ${(withChecker / alone).toFixed(3)}`);
} finally {
  await merchant.stop();
  probeFleet.stop();
  await stack.stop();
  await db.close();
}
