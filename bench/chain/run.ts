/**
 * npm run bench:chain — the chain indexer (decision 0052) on a devnet seeded with
 * CHAIN_BENCH_TRANSFERS (100,000) EIP-3009 settlements to CHAIN_BENCH_PAY_TOS (10,000) payTos.
 * Prints the indexer's settlements per second from an empty database, a bare eth_getLogs sweep of
 * the same range in the same run, the lag at steady state (single settlements, up to 20 a second)
 * and peak memory; last the ratio indexed/s to swept/s. PGlite by default, PostgreSQL with
 * BENCH_DATABASE_URL.
 */
import { pino } from "pino";
import { sql } from "kysely";
import { startDevnet } from "../../src/chain/devnet.js";
import { CHAIN_DEFAULTS } from "../../src/config.js";
import { rpcLogSource } from "../../src/chain/log-source.js";
import { indexStep } from "../../src/services/chain-index/index.js";
import { openBenchDb } from "../lib/bench-db.js";
import { bareSweep, memoryPeaks } from "./measure.js";
import { payerAccounts, payToAddresses, seedSettlements } from "./seed.js";
import { steadyLag } from "./steady.js";

const TRANSFERS = Number(process.env.CHAIN_BENCH_TRANSFERS ?? 100_000);
const PAY_TOS = Number(process.env.CHAIN_BENCH_PAY_TOS ?? 10_000);
const RANGE = BigInt(CHAIN_DEFAULTS.rangeBlocks);
const limits = { confirmations: 0n, rangeBlocks: RANGE, rereadBlocks: 12n, maxRanges: 20, backfillMs: 30 * 86_400_000 };

const devnet = await startDevnet({ log: pino({ level: "warn" }) });
const db = await openBenchDb(process.env.BENCH_DATABASE_URL || undefined);
try {
  const payTos = payToAddresses(PAY_TOS);
  let t = performance.now();
  const seeded = await seedSettlements(devnet, payTos, payerAccounts(100), TRANSFERS);
  console.log(
    `seeded ${TRANSFERS} settlements to ${PAY_TOS} payTos in blocks ${seeded.first}..${seeded.last} (${((performance.now() - t) / 1000).toFixed(1)} s; ${db.label})`,
  );
  await sql`insert into services (service_id, name, first_seen_at, last_seen_at) values ('bench', 'bench', now(), now())`.execute(db.db);
  await sql`insert into listings (url, url_normalized, method, service_id, host, network, pay_to, source_url, first_seen_at, last_seen_at, is_active, next_probe_at)
    select 'https://h' || i || '.example/', 'https://h' || i || '.example/', 'GET', 'bench', 'h' || i || '.example', 'eip155:84532', p, 'bench', now(), now(), true, now()
    from unnest(${payTos}::text[]) with ordinality as x(p, i)`.execute(db.db);

  // The chain's own count first (it also warms anvil for both measured reads); mints are before `first`.
  const onChain = await bareSweep(devnet, seeded.first, seeded.last, RANGE);
  if (onChain.logs !== TRANSFERS) throw new Error(`the chain holds ${onChain.logs} Transfer logs in the seeded blocks, seeded ${TRANSFERS}`);
  const sweep = await bareSweep(devnet, seeded.first, seeded.last, RANGE);
  const source = rpcLogSource(devnet.publicClient, devnet.usdcAddress, 10_000);
  const memory = memoryPeaks();
  t = performance.now();
  for (let step = await indexStep(db.db, source, devnet.network, limits, new Date()); step.lag > 0n || step.ranges > 1;)
    step = await indexStep(db.db, source, devnet.network, limits, new Date());
  const indexSeconds = (performance.now() - t) / 1000;
  const peak = memory.stop();
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from chain_settlements`.execute(db.db);
  if (rows[0]!.n !== TRANSFERS) throw new Error(`indexed ${rows[0]!.n} settlements, seeded ${TRANSFERS}`);
  const lag = await steadyLag(devnet, db, source, payTos, limits);

  console.log(
    `bare eth_getLogs sweep: ${sweep.logs} Transfer logs in ${sweep.seconds.toFixed(2)} s = ${(sweep.logs / sweep.seconds).toFixed(0)} logs/s (${sweep.refused} answers over 10 MB halved)`,
  );
  console.log(
    `indexer from empty: ${TRANSFERS} settlements in ${indexSeconds.toFixed(2)} s = ${(TRANSFERS / indexSeconds).toFixed(0)} settlements/s; peak RSS ${peak.rssMb} MB, heap ${peak.heapMb} MB`,
  );
  console.log(
    `steady state (${lag.sent} settlements at ${lag.perSecond.toFixed(1)}/s, a step every second): lag p50 ${lag.p50.toFixed(2)} s, max ${lag.max.toFixed(2)} s; ${lag.blocksBehind} blocks behind the head when sending stopped`,
  );
  console.log(`ratio indexed/s to bare sweep logs/s: ${(TRANSFERS / indexSeconds / (sweep.logs / sweep.seconds)).toFixed(3)}`);
} finally {
  await db.close();
  await devnet.stop();
}
