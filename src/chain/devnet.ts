import type { Logger } from "pino";
import { createPublicClient, createTestClient, createWalletClient, http, type Address, type Chain, type Hex, type PublicClient, type Transport } from "viem";
import { createNonceManager, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { getTransactionCount } from "viem/actions";
import { spawnAnvil } from "./anvil-process.js";
import { contractArtifacts } from "./artifacts.js";
import {
  ANVIL_MNEMONIC,
  DEMO_ACCOUNT_INDEXES,
  CANARY_ACCOUNT_INDEX,
  DEMO_MERCHANT_ACCOUNT_INDEX,
  TRAFFIC_ACCOUNT_INDEXES,
  FACILITATOR_ACCOUNT_INDEX,
  PAY_TO_ACCOUNT_INDEX,
  anvilAccount,
  type DevAccount,
} from "./devnet-accounts.js";
import { DEVNET_BLOCK_TIME_SECONDS, DEVNET_CHAIN_ID, DEVNET_NETWORK, DEVNET_POLLING_INTERVAL_MS, MULTICALL3_ADDRESS, devnetChain } from "./devnet-chain.js";
import { NETWORK_INFO } from "../lib/networks.js";
import { testUsdcAbi } from "./token-abi.js";

export interface Devnet {
  rpcUrl: string;
  chainId: typeof DEVNET_CHAIN_ID;
  network: typeof DEVNET_NETWORK;
  /** viem chain for this devnet (chain id 84532, local RPC URL, Multicall3 registered). */
  chain: Chain;
  /** TestUSDC, installed at the canonical Base Sepolia USDC address. */
  usdcAddress: Address;
  multicall3Address: Address;
  /** Receives payments: index 10 of the anvil mnemonic, holds no USDC at start. */
  payTo: Address;
  /** Anvil account 0: pays settlement gas and is the token's minter. */
  facilitatorAccount: PrivateKeyAccount;
  /** Anvil accounts 1..9, each minted DEMO_USDC_BALANCE at start. */
  demoAccounts: DevAccount[];
  /** The demo fleet's merchant payTo (index 21), minted DEMO_USDC_BALANCE too: it can pay from its payTo. */
  demoMerchant: DevAccount;
  /** The paid checker's wallet in demo mode (index 22), minted DEMO_USDC_BALANCE (decision 0051). */
  canary: DevAccount;
  /** The demo traffic agent's wallets (indexes 25..27), each minted DEMO_USDC_BALANCE (decision 0052). */
  traffic: DevAccount[];
  publicClient: PublicClient<Transport, Chain>;
  pids: { watchdog: number; anvil: number };
  stop(): Promise<void>;
}

/** 1,000 USDC in 10^-6 units. */
export const DEMO_USDC_BALANCE = 1_000_000_000n;

const RPC_READY_TIMEOUT_MS = 10_000;

async function waitForRpc(client: PublicClient<Transport, Chain>): Promise<void> {
  const deadline = Date.now() + RPC_READY_TIMEOUT_MS;
  for (;;) {
    try {
      const chainId = await client.getChainId();
      if (chainId !== DEVNET_CHAIN_ID) throw new Error(`devnet answered with chain id ${chainId}`);
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/**
 * Starts a fresh anvil devnet (chain id 84532, mixed mining: every transaction is mined the
 * moment it arrives, so a settlement's receipt is available immediately, and an empty block
 * comes every `blockTimeSeconds` so the chain's clock never stands still) with TestUSDC at the
 * canonical Base Sepolia USDC address, Multicall3 at its canonical address, and 1,000 USDC in
 * each of anvil accounts 1..9 and in the demo merchant's account 21.
 */
export async function startDevnet(opts: { log: Logger; port?: number; blockTimeSeconds?: number }): Promise<Devnet> {
  const log = opts.log.child({ component: "devnet" });
  const startedAt = Date.now();
  const blockTime = opts.blockTimeSeconds ?? DEVNET_BLOCK_TIME_SECONDS;
  const anvil = await spawnAnvil({
    log,
    port: opts.port,
    args: [
      ...["--chain-id", String(DEVNET_CHAIN_ID), "--mnemonic", ANVIL_MNEMONIC, "--accounts", "10"],
      ...["--block-time", String(blockTime), "--mixed-mining"],
    ],
  });

  try {
    const chain = devnetChain(anvil.rpcUrl);
    const transport = http(anvil.rpcUrl);
    const publicClient = createPublicClient({ chain, transport, pollingInterval: DEVNET_POLLING_INTERVAL_MS });
    await waitForRpc(publicClient);

    const usdcAddress = NETWORK_INFO[DEVNET_NETWORK].usdc.address;
    const testClient = createTestClient({ mode: "anvil", chain, transport });
    await installCode(testClient, publicClient, usdcAddress, contractArtifacts.contracts.TestUSDC.deployedBytecode);
    await installCode(testClient, publicClient, MULTICALL3_ADDRESS, contractArtifacts.contracts.Multicall3Compatible.deployedBytecode);

    const facilitatorAccount = devnetFacilitatorAccount();
    const demoAccounts = DEMO_ACCOUNT_INDEXES.map((index) => anvilAccount(index));
    const demoMerchant = anvilAccount(DEMO_MERCHANT_ACCOUNT_INDEX);
    const canary = anvilAccount(CANARY_ACCOUNT_INDEX);
    const traffic = TRAFFIC_ACCOUNT_INDEXES.map((index) => anvilAccount(index));
    const wallet = createWalletClient({
      account: facilitatorAccount,
      chain,
      transport,
      pollingInterval: DEVNET_POLLING_INTERVAL_MS,
    });
    for (const { address } of [...demoAccounts, demoMerchant, canary, ...traffic]) {
      const hash = await wallet.writeContract({
        address: usdcAddress,
        abi: testUsdcAbi,
        functionName: "mint",
        args: [address, DEMO_USDC_BALANCE],
      });
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== "success") throw new Error(`minting test USDC to ${address} reverted`);
    }

    const devnet: Devnet = {
      rpcUrl: anvil.rpcUrl,
      chainId: DEVNET_CHAIN_ID,
      network: DEVNET_NETWORK,
      chain,
      usdcAddress,
      multicall3Address: MULTICALL3_ADDRESS,
      payTo: anvilAccount(PAY_TO_ACCOUNT_INDEX).address,
      facilitatorAccount,
      demoAccounts,
      demoMerchant,
      canary,
      traffic,
      publicClient,
      pids: anvil.pids,
      stop: anvil.stop,
    };
    log.info({ rpcUrl: devnet.rpcUrl, usdc: usdcAddress, payTo: devnet.payTo, blockTimeSeconds: blockTime, ms: Date.now() - startedAt }, "devnet ready");
    return devnet;
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}

/**
 * The facilitator's account with a nonce manager of its own. viem's managers remember the highest
 * nonce they gave out, so a manager shared with an earlier devnet (or with the chain before an
 * evm_revert) would skip ahead of the chain and the next transaction would never mine.
 */
export function devnetFacilitatorAccount(): PrivateKeyAccount {
  return privateKeyToAccount(anvilAccount(FACILITATOR_ACCOUNT_INDEX).privateKey, {
    nonceManager: createNonceManager({
      source: {
        get: ({ address, client }) => getTransactionCount(client, { address, blockTag: "pending" }),
        set: () => undefined,
      },
    }),
  });
}

async function installCode(
  testClient: ReturnType<typeof createTestClient>,
  publicClient: PublicClient<Transport, Chain>,
  address: Address,
  bytecode: Hex,
): Promise<void> {
  await testClient.setCode({ address, bytecode });
  const installed = await publicClient.getCode({ address });
  if (installed?.toLowerCase() !== bytecode.toLowerCase()) throw new Error(`anvil_setCode at ${address} did not take`);
}
