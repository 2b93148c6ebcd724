import { createServer } from "node:net";
import { x402Client } from "@x402/core/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { pino } from "pino";
import { privateKeyToAccount } from "viem/accounts";
import type { Address } from "viem";
import { startDevnet, type Devnet } from "../../src/chain/devnet.js";
import { createLocalFacilitator } from "../../src/chain/facilitator.js";
import { testUsdcAbi } from "../../src/chain/token-abi.js";
import { createApp } from "../../src/http/app.js";
import { createCreditBypass } from "../../src/http/payment/credit-bypass.js";
import { createPaymentGate } from "../../src/http/payment/gate.js";
import type { PaidRoute, PaymentGate } from "../../src/http/payment/types.js";
import { isPaid, type AnyRouteDef } from "../../src/http/registry.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { listen } from "../../src/http/serve.js";
import { createTestContext, type TestContext } from "../helpers/context.js";

/** Every route of the service as the lead wires it: the product routes plus this issue's. */
export const allRoutes: readonly AnyRouteDef[] = productRoutes;

export interface LookoutService {
  url: string;
  ctx: TestContext;
  devnet: Devnet;
  gate: PaymentGate;
  routes: readonly AnyRouteDef[];
  /** Pays like an unmodified agent (@x402/fetch); routes of 1 USDC and more need spendCapUsd. */
  payingFetch(accountIndex?: number, opts?: { spendCapUsd?: string }): typeof fetch;
  balanceOf(address: Address): Promise<bigint>;
  payer(accountIndex?: number): Address;
  close(): Promise<void>;
}

/**
 * The real service on a real loopback port, paid on the real devnet: createApp with every route,
 * as the composition root does it (discovery surfaces included).
 */
export async function startLookout(opts: { env?: Record<string, string>; routes?: readonly AnyRouteDef[] } = {}): Promise<LookoutService> {
  const routes = opts.routes ?? allRoutes;
  const [devnet, port] = await Promise.all([startDevnet({ log: pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" }) }), freePort()]);
  const ctx = await createTestContext({ PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, ...opts.env });
  const gate = await createPaymentGate({
    network: devnet.network,
    payTo: devnet.payTo,
    asset: { address: devnet.usdcAddress, name: "USDC", version: "2" },
    publicBaseUrl: ctx.config.publicBaseUrl,
    facilitator: createLocalFacilitator(devnet),
    routes: routes.filter(isPaid) as PaidRoute[],
    ledger: ctx.services.payments,
    credits: createCreditBypass(ctx.services.credits),
    log: ctx.log,
  });
  const app = createApp({ ctx, routes, gate, validateResponses: true });
  const server = await listen(app, "127.0.0.1", port);
  const account = (i: number) => privateKeyToAccount(devnet.demoAccounts[i]!.privateKey);
  return {
    url: server.url,
    ctx,
    devnet,
    gate,
    routes,
    payingFetch(i = 0, { spendCapUsd } = {}) {
      const client = x402Client.fromConfig({
        schemes: (["eip155:8453", "eip155:84532"] as const).map((network) => ({ network, client: new ExactEvmScheme(account(i)) })),
        ...(spendCapUsd ? { spendControls: { maxAmountPerPayment: spendCapUsd } } : {}),
      });
      return wrapFetchWithPayment(fetch, client);
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

/** A free loopback port: PUBLIC_BASE_URL must name the port before the app is built. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export const postJson = (payload: unknown): RequestInit => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(payload) });
