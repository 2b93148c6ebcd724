import { getAbiItem, type Address, type Chain, type Hex, type PublicClient, type Transport } from "viem";
import type { AuthorizationLog, BlockInfo, LogSource, TransferLog } from "../services/chain-index/log-source.js";
import { classifyRpcError, createPacer } from "./rpc-pacing.js";
import { testUsdcAbi } from "./token-abi.js";

const transfer = getAbiItem({ abi: testUsdcAbi, name: "Transfer" });
const used = getAbiItem({ abi: testUsdcAbi, name: "AuthorizationUsed" });
/** Addresses per topic filter: public RPCs refuse very long OR-lists. */
const TOPIC_BATCH = 500;
/** Blocks read at once for their senders and times. */
const BLOCK_CONCURRENCY = 8;

type Client = PublicClient<Transport, Chain>;

/** The indexer's LogSource over a viem client: paced to `perSecond` requests, ranges split when refused. */
export function rpcLogSource(client: Client, token: string, perSecond: number): LogSource {
  const paced = createPacer(perSecond);
  const address = token as Address;
  const block = (blockNumber: bigint, includeTransactions = false) => paced(() => client.getBlock({ blockNumber, includeTransactions }));

  /** Reads [from, to]; a range the RPC refuses is read as two halves. */
  async function splitting<T>(from: bigint, to: bigint, read: (from: bigint, to: bigint) => Promise<T[]>): Promise<T[]> {
    try {
      return await paced(() => read(from, to));
    } catch (err) {
      if (from >= to || classifyRpcError(err) !== "range_too_large") throw err;
      const mid = from + (to - from) / 2n;
      return [...(await splitting(from, mid, read)), ...(await splitting(mid + 1n, to, read))];
    }
  }

  async function batched<T>(keys: readonly string[], read: (batch: Address[]) => Promise<T[]>): Promise<T[]> {
    const out: T[] = [];
    for (let i = 0; i < keys.length; i += TOPIC_BATCH) out.push(...(await read(keys.slice(i, i + TOPIC_BATCH) as Address[])));
    return out;
  }

  return {
    head: () => paced(() => client.getBlockNumber({ cacheTime: 0 })),
    async blockAt(unixSeconds) {
      let [lo, hi] = [0n, await paced(() => client.getBlockNumber({ cacheTime: 0 }))];
      if ((await block(lo)).timestamp >= BigInt(unixSeconds)) return lo;
      while (hi - lo > 1n) {
        const mid = lo + (hi - lo) / 2n;
        if ((await block(mid)).timestamp >= BigInt(unixSeconds)) hi = mid;
        else lo = mid;
      }
      return hi;
    },
    transfers: (from, to, payTos) =>
      batched(payTos, (batch) =>
        splitting(from, to, async (f, t): Promise<TransferLog[]> => {
          const logs = await client.getLogs({ address, event: transfer, args: { to: batch }, fromBlock: f, toBlock: t, strict: true });
          return logs.map((l) => ({
            txHash: l.transactionHash,
            logIndex: l.logIndex,
            blockNumber: l.blockNumber,
            blockHash: l.blockHash,
            from: l.args.from.toLowerCase(),
            to: l.args.to.toLowerCase(),
            value: l.args.value,
          }));
        }),
      ),
    authorizations: (from, to, authorizers) =>
      batched(authorizers, (batch) =>
        splitting(from, to, async (f, t): Promise<AuthorizationLog[]> => {
          const logs = await client.getLogs({ address, event: used, args: { authorizer: batch }, fromBlock: f, toBlock: t, strict: true });
          return logs.map((l) => ({
            txHash: l.transactionHash,
            logIndex: l.logIndex,
            authorizer: l.args.authorizer.toLowerCase(),
            nonce: l.args.nonce as Hex,
          }));
        }),
      ),
    async blocks(numbers) {
      const out = new Map<bigint, BlockInfo>();
      const queue = [...numbers];
      const worker = async () => {
        for (let n = queue.shift(); n !== undefined; n = queue.shift()) {
          const b = await block(n, true);
          const senders = new Map(b.transactions.map((tx) => (typeof tx === "string" ? [tx, ""] : [tx.hash, tx.from.toLowerCase()])));
          out.set(n, { hash: b.hash!, timestamp: Number(b.timestamp), senders });
        }
      };
      await Promise.all(Array.from({ length: Math.min(BLOCK_CONCURRENCY, queue.length) }, worker));
      return out;
    },
  };
}
