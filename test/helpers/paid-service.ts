import { x402Client } from "@x402/core/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { privateKeyToAccount } from "viem/accounts";
import type { Address } from "viem";
import { startDevnet, type Devnet } from "../../src/chain/devnet.js";
import { createLocalFacilitator, type FacilitatorClient } from "../../src/chain/facilitator.js";
import { testUsdcAbi } from "../../src/chain/token-abi.js";
import { createApp } from "../../src/http/app.js";
import { createCreditBypass } from "../../src/http/payment/credit-bypass.js";
import { createPaymentGate } from "../../src/http/payment/gate.js";
import type { PaidRoute } from "../../src/http/payment/types.js";
import { isPaid, type AnyRouteDef } from "../../src/http/registry.js";
import { listen } from "../../src/http/serve.js";
import { createTestContext, type TestContext } from "./context.js";

export interface PaidService {
  url: string;
  ctx: TestContext;
  devnet: Devnet;
  /** A fetch that pays like an unmodified third-party agent: @x402/fetch + ExactEvmScheme. */
  payingFetch(accountIndex?: number, opts?: { spendCapUsd?: string; inner?: typeof fetch }): typeof fetch;
  balanceOf(address: Address): Promise<bigint>;
  payer(accountIndex?: number): Address;
  close(): Promise<void>;
}

/**
 * The real app on a real loopback port, paid on the real devnet. Pass `facilitator` to put a
 * different FacilitatorClient (e.g. one over HTTP) between the gate and the chain.
 */
export async function startPaidService(opts: {
  routes: readonly AnyRouteDef[];
  env?: Record<string, string>;
  facilitator?: (devnet: Devnet) => Promise<FacilitatorClient> | FacilitatorClient;
  facilitatorTimeoutMs?: number;
}): Promise<PaidService> {
  const devnet = await startDevnet({ log: (await createTestContext()).log });
  const probe = await listen(createApp({ ctx: await createTestContext(), routes: [] }), "127.0.0.1", 0);
  const port = probe.port;
  await probe.close();
  const ctx = await createTestContext({ PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, ...opts.env });
  const facilitator = opts.facilitator ? await opts.facilitator(devnet) : createLocalFacilitator(devnet);
  const gate = await createPaymentGate({
    network: devnet.network,
    payTo: devnet.payTo,
    asset: { address: devnet.usdcAddress, name: "USDC", version: "2" },
    publicBaseUrl: ctx.config.publicBaseUrl,
    facilitator,
    routes: opts.routes.filter(isPaid) as PaidRoute[],
    ledger: ctx.services.payments,
    credits: createCreditBypass(ctx.services.credits),
    log: ctx.log,
    facilitatorTimeoutMs: opts.facilitatorTimeoutMs,
  });
  const server = await listen(createApp({ ctx, routes: opts.routes, gate, validateResponses: true }), "127.0.0.1", port);
  const account = (i: number) => privateKeyToAccount(devnet.demoAccounts[i]!.privateKey);
  return {
    url: server.url,
    ctx,
    devnet,
    payingFetch(i = 0, { spendCapUsd, inner = fetch } = {}) {
      const client = x402Client.fromConfig({
        schemes: (["eip155:8453", "eip155:84532"] as const).map((network) => ({ network, client: new ExactEvmScheme(account(i)) })),
        ...(spendCapUsd ? { spendControls: { maxAmountPerPayment: spendCapUsd } } : {}),
      });
      return wrapFetchWithPayment(inner, client);
    },
    balanceOf: (address) => devnet.publicClient.readContract({ address: devnet.usdcAddress, abi: testUsdcAbi, functionName: "balanceOf", args: [address] }),
    payer: (i = 0) => account(i).address,
    async close() {
      await server.close(1000);
      await ctx.close();
      await devnet.stop();
    },
  };
}
