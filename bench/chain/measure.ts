import { getAbiItem } from "viem";
import type { Devnet } from "../../src/chain/devnet.js";
import { classifyRpcError } from "../../src/chain/rpc-pacing.js";
import { testUsdcAbi } from "../../src/chain/token-abi.js";

const transfer = getAbiItem({ abi: testUsdcAbi, name: "Transfer" });

/**
 * The baseline: every Transfer log of the token over [from, to], read and decoded in `range`-block
 * requests (halved when the answer passes viem's 10 MB cap, as the indexer's are: `refused` counts
 * those), nothing else.
 */
export async function bareSweep(devnet: Devnet, from: bigint, to: bigint, range: bigint) {
  const started = performance.now();
  let refused = 0;
  const read = async (f: bigint, t: bigint): Promise<number> => {
    try {
      return (await devnet.publicClient.getLogs({ address: devnet.usdcAddress, event: transfer, fromBlock: f, toBlock: t })).length;
    } catch (err) {
      if (f >= t || classifyRpcError(err) !== "range_too_large") throw err;
      refused++;
      const mid = f + (t - f) / 2n;
      return (await read(f, mid)) + (await read(mid + 1n, t));
    }
  };
  let logs = 0;
  for (let f = from; f <= to; f += range) logs += await read(f, f + range - 1n < to ? f + range - 1n : to);
  return { logs, refused, seconds: (performance.now() - started) / 1000 };
}

/** Samples the process's resident and heap memory every 100 ms until stopped; returns the peaks in MB. */
export function memoryPeaks() {
  let rss = 0;
  let heap = 0;
  const sample = () => {
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed);
  };
  const timer = setInterval(sample, 100);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return { rssMb: Math.round(rss / 2 ** 20), heapMb: Math.round(heap / 2 ** 20) };
    },
  };
}

export const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
