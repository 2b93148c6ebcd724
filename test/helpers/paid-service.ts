import { privateKeyToAccount } from "viem/accounts";
import type { Address } from "viem";
import type { Devnet } from "../../src/chain/devnet.js";
import type { FacilitatorClient } from "../../src/chain/facilitator.js";
import { devnetRail } from "../../src/chain/payment-rail.js";
import { testUsdcAbi } from "../../src/chain/token-abi.js";
import { createApp } from "../../src/http/app.js";
import { createAppGate } from "../../src/http/payment/app-gate.js";
import type { PaymentGate } from "../../src/http/payment/types.js";
import type { AnyRouteDef } from "../../src/http/registry.js";
import { listen } from "../../src/http/serve.js";
import { createTestContext, type TestContext } from "./context.js";
import { freePort } from "./free-port.js";
import { acquireDevnet } from "./shared-devnet.js";
import { x402PayingFetch, type PayerOptions } from "./x402-payer.js";

export interface PaidService {
  url: string;
  ctx: TestContext;
  devnet: Devnet;
  gate: PaymentGate;
  routes: readonly AnyRouteDef[];
  /** A fetch that pays like an unmodified third-party agent: @x402/fetch + ExactEvmScheme. */
  payingFetch(accountIndex?: number, opts?: PayerOptions): typeof fetch;
  /** A paying fetch that keeps every PAYMENT-SIGNATURE it sent, for replay tests. */
  recordingFetch(accountIndex?: number, paymentId?: string): { sent: string[]; fetch: typeof fetch };
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
  /** Seconds between the devnet's empty blocks (default: the devnet's own). */
  blockTimeSeconds?: number;
}): Promise<PaidService> {
  const [devnet, port] = await Promise.all([acquireDevnet({ blockTimeSeconds: opts.blockTimeSeconds }), freePort()]);
  const ctx = await createTestContext({ PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, ...opts.env });
  const rail = devnetRail(devnet);
  if (opts.facilitator) rail.facilitator = await opts.facilitator(devnet);
  const gate = await createAppGate(ctx, rail, opts.routes, { facilitatorTimeoutMs: opts.facilitatorTimeoutMs });
  const server = await listen(createApp({ ctx, routes: opts.routes, gate, validateResponses: true }), "127.0.0.1", port);
  const account = (i: number) => privateKeyToAccount(devnet.demoAccounts[i]!.privateKey);
  return {
    url: server.url,
    ctx,
    devnet,
    gate,
    routes: opts.routes,
    payingFetch: (i = 0, opts = {}) => x402PayingFetch(devnet.demoAccounts[i]!.privateKey, opts),
    recordingFetch(i = 0, paymentId) {
      const sent: string[] = [];
      const spy: typeof fetch = async (input, init) => {
        const req = new Request(input as string | URL | Request, init);
        const sig = req.headers.get("payment-signature");
        if (sig) sent.push(sig);
        return fetch(req);
      };
      return { sent, fetch: x402PayingFetch(devnet.demoAccounts[i]!.privateKey, { inner: spy, paymentId }) };
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
