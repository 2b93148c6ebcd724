import type { Config } from "../config.js";
import type { Logger } from "../lib/log.js";
import { shownUrl } from "../lib/redact.js";
import type { SmartSignatureCheck } from "../services/payments/authorization-check.js";
import type { ChainReader } from "../services/payments/chain-outcome.js";
import { chainReader, remoteChainClient, smartSignatureCheck } from "./chain-reader.js";
import { startDevnet, type Devnet } from "./devnet.js";
import { createLocalFacilitator, createRemoteFacilitator, type FacilitatorClient } from "./facilitator.js";
import { checkFacilitatorSupport } from "./facilitator-check.js";
import { getNetworkInfo } from "../lib/networks.js";

/** Where payments go and who settles them: the local devnet, or a remote facilitator. */
export interface PaymentRail {
  network: string;
  payTo: string;
  asset: { address: string; name: string; version: string };
  facilitator: FacilitatorClient;
  /** The chain itself, read to resolve payments whose settlement outcome is not known. */
  chain: ChainReader;
  smartSignatures: SmartSignatureCheck;
  /** Present when the embedded devnet runs in this process. */
  devnet?: Devnet;
}

export async function startPaymentRail(config: Config, log: Logger): Promise<PaymentRail> {
  const info = getNetworkInfo(config.network);
  const asset = { address: info.usdc.address, name: info.usdc.eip712.name, version: info.usdc.eip712.version };
  if (config.facilitatorUrl) {
    log.info({ facilitator: shownUrl(config.facilitatorUrl), network: config.network }, "payments settle through a remote facilitator");
    const facilitator = createRemoteFacilitator(config.facilitatorUrl, config.facilitatorAuthHeader ?? config.cdpApiKey);
    await checkFacilitatorSupport(facilitator, { url: config.facilitatorUrl, network: config.network });
    const client = remoteChainClient(config.network, config.rpcUrl);
    return { network: config.network, payTo: config.payTo!, asset, facilitator, chain: chainReader(client), smartSignatures: smartSignatureCheck(client) };
  }
  const devnet = await startDevnet({ log });
  const demo = devnet.demoAccounts[0]!;
  log.info(
    {
      rpc: devnet.rpcUrl,
      chainId: devnet.chainId,
      usdc: devnet.usdcAddress,
      payTo: config.payTo ?? devnet.payTo,
      demoAddress: demo.address,
      demoPrivateKey: demo.privateKey,
      // The demo merchant's payTo key: it pays for the demo merchant's own certificate (decision 0019).
      demoMerchantAddress: devnet.demoMerchant.address,
      demoMerchantPrivateKey: devnet.demoMerchant.privateKey,
    },
    "local devnet up: anvil accounts 1..9 and the demo merchant's account 21 hold 1,000 test USDC each; the demo keys above are public anvil test keys",
  );
  return devnetRail(devnet, config.payTo ?? devnet.payTo);
}

/** The rail of a running devnet: its network, its USDC, the in-process facilitator. */
export function devnetRail(devnet: Devnet, payTo: string = devnet.payTo): PaymentRail {
  const usdc = getNetworkInfo(devnet.network).usdc;
  return {
    network: devnet.network,
    payTo,
    asset: { address: devnet.usdcAddress, name: usdc.eip712.name, version: usdc.eip712.version },
    facilitator: createLocalFacilitator(devnet),
    chain: chainReader(devnet.publicClient),
    smartSignatures: smartSignatureCheck(devnet.publicClient),
    devnet,
  };
}
