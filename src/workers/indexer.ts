import { privateKeyToAccount } from "viem/accounts";
import { remoteChainClient } from "../chain/chain-reader.js";
import { createRemoteFacilitator } from "../chain/facilitator.js";
import { rpcLogSource } from "../chain/log-source.js";
import type { PaymentRail } from "../chain/payment-rail.js";
import type { AppContext } from "../context.js";
import { getNetworkInfo } from "../lib/networks.js";
import { createChainIndexer, signersFor } from "../services/index.js";
import type { Task } from "./periodic.js";

/**
 * The chain indexer's tick (decision 0052): USDC settlements to every known payTo, read from the
 * devnet this process runs, else RPC_URL (else the network's public RPC). Several indexers may
 * run: each range's write checks the cursor it read from.
 */
export function indexerTask(ctx: AppContext, rail: PaymentRail | undefined): Task<void> {
  const { config } = ctx;
  const log = ctx.log.child({ worker: "indexer" });
  const client = rail?.devnet?.publicClient ?? remoteChainClient(config.network, config.rpcUrl);
  const token = rail?.asset.address ?? getNetworkInfo(config.network).usdc.address;
  const facilitator =
    rail?.facilitator ?? (config.facilitatorUrl ? createRemoteFacilitator(config.facilitatorUrl, config.facilitatorAuthHeader ?? config.cdpApiKey) : null);
  const { chain } = config;
  const indexer = createChainIndexer({
    db: ctx.db.db,
    clock: ctx.clock,
    log,
    source: rpcLogSource(client, token, chain.rpcPerSecond),
    network: config.network,
    limits: { confirmations: BigInt(chain.confirmations), rangeBlocks: BigInt(chain.rangeBlocks) },
    knownSigners: async () => (facilitator ? signersFor((await facilitator.getSupported()).signers, config.network) : []),
    ownWallets: config.canary.privateKey ? [privateKeyToAccount(config.canary.privateKey).address] : [],
    ghostListedHours: chain.ghostMinListedHours,
    metrics: ctx.metrics,
  });
  log.info(
    { network: config.network, token, confirmations: chain.confirmations, rangeBlocks: chain.rangeBlocks, rpcPerSecond: chain.rpcPerSecond },
    "chain indexer on",
  );
  return {
    async tick() {
      const r = await indexer.tick();
      if (r.ranges > 0 || r.summaries > 0)
        log.debug({ head: r.head.toString(), ranges: r.ranges, settlements: r.settlements, lag: r.lag.toString(), summaries: r.summaries }, "indexer step");
    },
  };
}
