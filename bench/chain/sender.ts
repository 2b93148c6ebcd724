/**
 * The steady-state sender, a process of its own (steady.ts forks it, the job in argv): PGlite runs
 * in the bench's thread and blocks its event loop while it works, which would slow a sender there.
 */
import { createPublicClient, http, type Address } from "viem";
import { devnetFacilitatorAccount } from "../../src/chain/devnet.js";
import { DEVNET_CHAIN_ID, DEVNET_POLLING_INTERVAL_MS, devnetChain } from "../../src/chain/devnet-chain.js";
import { payerAccounts, settlementCall } from "./seed.js";
import { devnetWallet } from "./wallet.js";

export interface SenderJob {
  rpcUrl: string;
  usdcAddress: Address;
  payTos: Address[];
  perSecond: number;
  seconds: number;
}
/** A settlement's receipt (`at`: Unix ms), or the end of sending with the rate kept. */
export type SenderMessage = { hash: string; at: number } | { done: true; perSecond: number };

const job = JSON.parse(process.argv[2]!) as SenderJob;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const chain = devnetChain(job.rpcUrl);
const net = { chainId: DEVNET_CHAIN_ID, usdcAddress: job.usdcAddress, rpcUrl: job.rpcUrl, chain, facilitatorAccount: devnetFacilitatorAccount() } as const;
const client = createPublicClient({ chain, transport: http(job.rpcUrl), pollingInterval: DEVNET_POLLING_INTERVAL_MS });
const wallet = devnetWallet(net);
const payer = payerAccounts(1)[0]!;
const post = (m: SenderMessage) => process.send!(m);

// Nonce, gas and fees set here, so a send is one request. Each waits for the one before it: with
// 100,000 settlements in its state anvil takes about half a second a block, and a queue would grow.
let nonce = await client.getTransactionCount({ address: net.facilitatorAccount.address, blockTag: "pending" });
const fees = await client.estimateFeesPerGas();
const started = performance.now();
let sent = 0;
for (; performance.now() - started < job.seconds * 1000; sent++) {
  const hash = await wallet.sendTransaction({
    to: job.usdcAddress,
    data: await settlementCall(net, payer, job.payTos[sent % job.payTos.length]!, 1000n),
    nonce: nonce++,
    gas: 200_000n,
    maxFeePerGas: fees.maxFeePerGas * 4n,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
  });
  await client.waitForTransactionReceipt({ hash });
  post({ hash: hash.toLowerCase(), at: Date.now() });
  await sleep(Math.max(0, started + ((sent + 1) * 1000) / job.perSecond - performance.now()));
}
// Sent before the channel closes, so the bench hears the end.
process.send!({ done: true, perSecond: sent / ((performance.now() - started) / 1000) } satisfies SenderMessage, () => process.disconnect());
