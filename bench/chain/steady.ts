import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import type { Address } from "viem";
import type { Devnet } from "../../src/chain/devnet.js";
import { indexStep, type IndexLimits, type LogSource } from "../../src/services/chain-index/index.js";
import type { BenchDb } from "../lib/bench-db.js";
import { percentile } from "./measure.js";
import type { SenderJob, SenderMessage } from "./sender.js";

const PER_SECOND = 20;
const SECONDS = 20;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Ended {
  perSecond: number;
  blocksBehind: number;
  at: number;
}

/**
 * Steady state: for SECONDS, up to PER_SECOND settlements a second, each its own transaction (mined
 * on arrival), sent by sender.ts while the indexer steps every second here; each one's lag is from
 * its receipt to its row. Returns the lag's median and maximum in seconds, the rate the devnet kept,
 * and how far the payTo read least far is behind the head when sending ends (before the drain).
 */
export async function steadyLag(devnet: Devnet, db: BenchDb, source: LogSource, payTos: readonly Address[], limits: IndexLimits) {
  const mined = new Map<string, number>();
  const seen = new Map<string, number>();
  let sent: Ended | null = null;
  const behind = async () => {
    const { rows } = await sql<{ low: number }>`select min(synced_to)::int as low from chain_payees`.execute(db.db);
    return Number(await devnet.publicClient.getBlockNumber({ cacheTime: 0 })) - rows[0]!.low;
  };
  const job: SenderJob = {
    rpcUrl: devnet.rpcUrl,
    usdcAddress: devnet.usdcAddress,
    payTos: payTos.slice(0, PER_SECOND * SECONDS), // the job goes in argv: 128 KB at most
    perSecond: PER_SECOND,
    seconds: SECONDS,
  };
  const sender = fork(fileURLToPath(new URL("./sender.ts", import.meta.url)), [JSON.stringify(job)], {
    execArgv: ["--conditions=@x402-lookout/source", "--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const failed = new Promise<never>((_, reject) => sender.once("exit", (code) => code && reject(new Error(`the sender exited with ${code}`))));
  sender.on("message", (m: SenderMessage) => {
    if ("hash" in m) mined.set(m.hash, m.at);
    else void behind().then((blocksBehind) => (sent = { perSecond: m.perSecond, blocksBehind, at: Date.now() }));
  });
  const indexer = async () => {
    while (!sent || seen.size < mined.size) {
      if (sent && Date.now() - sent.at > 60_000) throw new Error(`${mined.size - seen.size} settlements not indexed 60 s after the last`);
      await indexStep(db.db, source, devnet.network, limits, new Date());
      const hashes = [...mined.keys()];
      const { rows } = await sql<{ tx_hash: string }>`select tx_hash from chain_settlements
        where network = ${devnet.network} and tx_hash = any(${hashes}::text[])`.execute(db.db);
      const now = Date.now();
      for (const r of rows) if (!seen.has(r.tx_hash)) seen.set(r.tx_hash, now);
      await sleep(1000);
    }
  };
  await Promise.race([indexer(), failed]);
  sender.kill();
  const lags = [...mined].map(([tx, at]) => (seen.get(tx)! - at) / 1000);
  const end = (sent as Ended | null)!;
  return { sent: mined.size, perSecond: end.perSecond, p50: percentile(lags, 50), max: Math.max(...lags), blocksBehind: end.blocksBehind };
}
