import { sql } from "kysely";
import type { Address } from "viem";
import type { Devnet } from "../../src/chain/devnet.js";
import { indexStep, type IndexLimits, type LogSource } from "../../src/services/chain-index/index.js";
import type { BenchDb } from "../lib/bench-db.js";
import { percentile } from "./measure.js";
import { payerAccounts, settlementCall } from "./seed.js";
import { devnetWallet } from "./wallet.js";

const PER_SECOND = 20;
const SECONDS = 15;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Steady state: PER_SECOND settlements a second for SECONDS, each its own transaction (mined on
 * arrival), while the indexer steps every second; each settlement's lag is from its receipt to
 * its row. Returns the lag's median and maximum in seconds and how far behind the head it ends.
 */
export async function steadyLag(devnet: Devnet, db: BenchDb, source: LogSource, payTos: readonly Address[], limits: IndexLimits) {
  const wallet = devnetWallet(devnet);
  const payer = payerAccounts(1)[0]!;
  const mined = new Map<string, number>();
  const seen = new Map<string, number>();
  let sending = true;
  const indexer = (async () => {
    while (sending || seen.size < mined.size) {
      await indexStep(db.db, source, devnet.network, limits, new Date());
      const { rows } = await sql<{ tx_hash: string }>`select tx_hash from chain_settlements where tx_hash = any(${[...mined.keys()]}::text[])`.execute(db.db);
      for (const r of rows) if (!seen.has(r.tx_hash)) seen.set(r.tx_hash, performance.now());
      await sleep(1000);
    }
  })();
  for (let i = 0; i < PER_SECOND * SECONDS; i++) {
    const started = performance.now();
    const data = await settlementCall(devnet, payer, payTos[i % payTos.length]!, 1000n);
    const hash = await wallet.sendTransaction({ to: devnet.usdcAddress, data });
    await devnet.publicClient.waitForTransactionReceipt({ hash });
    mined.set(hash.toLowerCase(), performance.now());
    await sleep(Math.max(0, 1000 / PER_SECOND - (performance.now() - started)));
  }
  sending = false;
  await indexer;
  const lags = [...mined].map(([tx, at]) => (seen.get(tx)! - at) / 1000);
  const head = await devnet.publicClient.getBlockNumber();
  const { rows } = await sql<{ low: number }>`select min(synced_to)::int as low from chain_payees`.execute(db.db);
  return { sent: mined.size, perSecond: PER_SECOND, p50: percentile(lags, 50), max: Math.max(...lags), blocksBehind: Number(head) - rows[0]!.low };
}
