import { pino } from "pino";
import { createTestClient, http, type Hex } from "viem";
import { devnetFacilitatorAccount, startDevnet, type Devnet } from "../../src/chain/devnet.js";

const log = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });

interface Shared {
  devnet: Devnet;
  snapshot: Hex;
}
let shared: Promise<Shared> | undefined;
let inUse = false;

/**
 * One devnet per test worker instead of one per file: a worker runs its files one after another
 * in one process (isolate: false), and each file gets the chain as it stood after the mints
 * (evm_revert to a snapshot), so no file sees another's payments. A second devnet at once in a
 * file, or one with its own block time, is started afresh. `stop()` hands the shared one back.
 */
export async function acquireDevnet(opts: { blockTimeSeconds?: number } = {}): Promise<Devnet> {
  if (opts.blockTimeSeconds !== undefined || inUse) return startDevnet({ log, blockTimeSeconds: opts.blockTimeSeconds });
  inUse = true;
  try {
    shared ??= startDevnet({ log }).then(async (devnet) => ({ devnet, snapshot: await testClient(devnet).snapshot() }));
    const s = await shared;
    const client = testClient(s.devnet);
    // Transactions a file left in the pool would hold nonces the reverted chain never saw, and the
    // facilitator's nonce manager remembers the nonces it gave out: a new one per file.
    await client.request({ method: "anvil_dropAllTransactions" } as never);
    const reverted = await client.request({ method: "evm_revert", params: [s.snapshot] });
    if ((reverted as unknown) !== true) throw new Error("the shared devnet did not revert to its snapshot");
    s.snapshot = await client.snapshot(); // a snapshot is spent when reverted to
    return { ...s.devnet, facilitatorAccount: devnetFacilitatorAccount(), stop: async () => void (inUse = false) };
  } catch (error) {
    inUse = false;
    shared = undefined;
    throw error;
  }
}

const testClient = (devnet: Devnet) => createTestClient({ mode: "anvil", chain: devnet.chain, transport: http(devnet.rpcUrl) });
