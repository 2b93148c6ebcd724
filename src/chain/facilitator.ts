import { x402Facilitator } from "@x402/core/facilitator";
import { HTTPFacilitatorClient, type FacilitatorClient } from "@x402/core/server";
import type { Network, SupportedResponse } from "@x402/core/types";
import { toFacilitatorEvmSigner, type FacilitatorEvmSigner } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/facilitator";
import { createWalletClient, http, publicActions } from "viem";
import { cdpAuthHeaders } from "./cdp-auth.js";
import type { CdpApiKey } from "../lib/cdp-key.js";
import type { Devnet } from "./devnet.js";
import { DEVNET_POLLING_INTERVAL_MS } from "./devnet-chain.js";

export type { FacilitatorClient };

/** Bounds a settlement's receipt wait; anvil mines on arrival, so this only trips if it hangs. */
const LOCAL_CONFIRMATION_TIMEOUT_MS = 30_000;

type LocalFacilitatorDevnet = Pick<Devnet, "rpcUrl" | "chain" | "network" | "facilitatorAccount">;

/**
 * In-process facilitator for the devnet: the SDK's own x402Facilitator with the exact EVM
 * scheme, signing and paying gas with anvil account 0. verify() simulates the transfer on
 * chain; settle() broadcasts transferWithAuthorization and returns only after the receipt,
 * so balances have moved when it resolves.
 */
export function createLocalFacilitator(devnet: LocalFacilitatorDevnet): FacilitatorClient {
  const wallet = createWalletClient({
    account: devnet.facilitatorAccount,
    chain: devnet.chain,
    transport: http(devnet.rpcUrl),
    pollingInterval: DEVNET_POLLING_INTERVAL_MS,
  }).extend(publicActions);

  // viem's strongly typed actions are wider than the SDK's structural signer type; the SDK
  // passes plain ABI objects, which viem accepts at runtime.
  const signer = toFacilitatorEvmSigner(
    {
      address: devnet.facilitatorAccount.address,
      readContract: (args) => wallet.readContract(args as Parameters<typeof wallet.readContract>[0]),
      verifyTypedData: (args) => wallet.verifyTypedData(args as Parameters<typeof wallet.verifyTypedData>[0]),
      writeContract: (args) => wallet.writeContract(args as Parameters<typeof wallet.writeContract>[0]),
      sendTransaction: (args) => wallet.sendTransaction(args),
      waitForTransactionReceipt: (args) => wallet.waitForTransactionReceipt(args),
      getCode: (args) => wallet.getCode(args),
    } satisfies Omit<FacilitatorEvmSigner, "getAddresses"> & { address: `0x${string}` },
    { confirmationTimeoutMs: LOCAL_CONFIRMATION_TIMEOUT_MS },
  );

  const facilitator = new x402Facilitator().register(devnet.network, new ExactEvmScheme(signer));

  return {
    verify: (paymentPayload, paymentRequirements) => facilitator.verify(paymentPayload, paymentRequirements),
    settle: (paymentPayload, paymentRequirements) => facilitator.settle(paymentPayload, paymentRequirements),
    // x402Facilitator answers synchronously with plain strings; FacilitatorClient wants the
    // HTTP facilitator's async shape with CAIP-2 typed networks.
    getSupported: async (): Promise<SupportedResponse> => {
      const supported = facilitator.getSupported();
      return { ...supported, kinds: supported.kinds.map((kind) => ({ ...kind, network: kind.network as Network })) };
    },
  };
}

/** A static header (FACILITATOR_AUTH_HEADER) or a CDP API key. */
export type FacilitatorAuth = { name: string; value: string } | CdpApiKey;

/**
 * A remote facilitator (x402.org, CDP, self-hosted) through the SDK's HTTP client. A static
 * header is sent on verify, settle, supported and bazaar calls; a CDP key signs each call.
 */
export function createRemoteFacilitator(url: string, auth?: FacilitatorAuth): FacilitatorClient {
  return new HTTPFacilitatorClient({ url, createAuthHeaders: auth && ("keyId" in auth ? cdpAuthHeaders(url, auth) : staticAuthHeaders(auth)) });
}

function staticAuthHeaders(header: { name: string; value: string }) {
  return async () => {
    const headers = { [header.name]: header.value };
    return { verify: headers, settle: headers, supported: headers, bazaar: headers };
  };
}
