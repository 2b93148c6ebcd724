import { createPublicClient, getAbiItem, http, type Address, type Chain, type Hex, type PublicClient, type Transport } from "viem";
import { base, baseSepolia } from "viem/chains";
import type { SmartSignatureCheck } from "../services/payments/authorization-check.js";
import type { AuthorizationOutcome, ChainReader } from "../services/payments/chain-outcome.js";
import { testUsdcAbi } from "./token-abi.js";

/** How far back the logs are searched for the transaction that used an authorization (Base: ~11 h). */
const LOG_LOOKBACK_BLOCKS = 20_000n;

const used = getAbiItem({ abi: testUsdcAbi, name: "AuthorizationUsed" });
const canceled = getAbiItem({ abi: testUsdcAbi, name: "AuthorizationCanceled" });

/** Reads EIP-3009 authorization outcomes from the token through any viem public client. */
type Client = PublicClient<Transport, Chain>;

export function chainReader(client: Client): ChainReader {
  return {
    async authorizationOutcome(asset, authorizer, nonce): Promise<AuthorizationOutcome> {
      const args = { authorizer: authorizer as Address, nonce: nonce as Hex };
      const isUsed = await client.readContract({
        address: asset as Address,
        abi: testUsdcAbi,
        functionName: "authorizationState",
        args: [args.authorizer, args.nonce],
      });
      if (!isUsed) return { state: "unused" };
      const latest = await client.getBlockNumber();
      const fromBlock = latest > LOG_LOOKBACK_BLOCKS ? latest - LOG_LOOKBACK_BLOCKS : 0n;
      const range = { address: asset as Address, args, fromBlock, toBlock: latest };
      const [use] = await client.getLogs({ ...range, event: used });
      if (use) return { state: "used", transaction: use.transactionHash };
      const [cancel] = await client.getLogs({ ...range, event: canceled });
      return cancel ? { state: "canceled" } : { state: "unknown" };
    },
  };
}

/** The chain of a remote network through RPC_URL, or the network's public endpoint. */
export function remoteChainClient(network: string, rpcUrl: string | undefined): Client {
  const chain: Chain = network === `eip155:${base.id}` ? base : baseSepolia;
  return createPublicClient({ chain, transport: http(rpcUrl) }) as Client;
}

/** Contract-wallet signatures (ERC-1271, ERC-6492) checked on chain through viem. */
export function smartSignatureCheck(client: Client): SmartSignatureCheck {
  return (typed, signer, signature) => client.verifyTypedData({ ...typed, address: signer, signature } as Parameters<Client["verifyTypedData"]>[0]);
}
