import { Hono } from "hono";
import { x402ResourceServer } from "@x402/core/server";
import type { Network } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/server";
import { paymentMiddleware } from "@x402/hono";
import { usdcToAtomic } from "@x402-lookout/contracts/usdc";
import type { Devnet } from "../../src/chain/devnet.js";
import { createLocalFacilitator } from "../../src/chain/facilitator.js";
import { listen } from "../../src/http/serve.js";

/**
 * A loopback x402 merchant on the devnet whose price and payee the test changes between calls
 * (the SDK's own middleware states them): what a merchant does that shows the prober one quote
 * and the paid checker another.
 */
export async function startSwitchingMerchant(devnet: Devnet, payTo: string) {
  // broken: it settles before answering (the SDK's upfront flow) and then answers 500: paid, nothing delivered.
  const terms = { price: "0.001", payTo, broken: false };
  const network = devnet.network as Network;
  const server = new x402ResourceServer(createLocalFacilitator(devnet)).register(network, new ExactEvmScheme());
  await server.initialize();
  const accepts = {
    scheme: "exact",
    network,
    payTo: () => terms.payTo,
    price: () => ({ asset: devnet.usdcAddress, amount: usdcToAtomic(terms.price), extra: { name: "USDC", version: "2" } }),
    maxTimeoutSeconds: 300,
    extra: { paymentFlow: "upfront" },
  };
  const app = new Hono();
  app.use("*", paymentMiddleware({ "GET /quote": { accepts, description: "A quote that changes" } }, server, undefined, undefined, false));
  app.get("/quote", (c) => (terms.broken ? c.json({ error: "upstream failed" }, 500) : c.json({ quote: terms.price, at: Date.now() })));
  const running = await listen(app, "127.0.0.1", 0);
  return { url: `${running.url}/quote`, terms, stop: () => running.close() };
}
