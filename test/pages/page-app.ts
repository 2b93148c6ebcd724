import type { FacilitatorClient } from "../../src/chain/facilitator.js";
import { createApp, type App } from "../../src/http/app.js";
import { createPaymentGate } from "../../src/http/payment/gate.js";
import type { PaidRoute } from "../../src/http/payment/types.js";
import { isPaid } from "../../src/http/registry.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { createTestContext, type TestContext } from "../helpers/context.js";

/**
 * Nothing is paid in page tests: the facilitator only tells the SDK what it supports, so the
 * gate can build real challenges (an unpaid request answers 402); verify and settle never run.
 */
const supportsOnly: FacilitatorClient = {
  getSupported: async () => ({ kinds: [{ x402Version: 2, scheme: "exact", network: "eip155:84532" }], extensions: [], signers: {} }),
  verify: () => Promise.reject(new Error("page tests pay nothing")),
  settle: () => Promise.reject(new Error("page tests pay nothing")),
};

/** The whole app in process, every product route, with a payment gate that can ask for payment. */
export async function pageApp(): Promise<{ ctx: TestContext; app: App; html(path: string): Promise<string> }> {
  const ctx = await createTestContext();
  const gate = await createPaymentGate({
    network: "eip155:84532",
    payTo: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    asset: { address: "0x036CbD53842c5426634e7929541eC2318f3dCF7e", name: "USDC", version: "2" },
    publicBaseUrl: ctx.config.publicBaseUrl,
    facilitator: supportsOnly,
    routes: productRoutes.filter(isPaid) as PaidRoute[],
    ledger: ctx.services.payments,
  });
  const app = createApp({ ctx, routes: productRoutes, gate });
  const html = async (path: string) => {
    const res = await app.request(path);
    if (res.status !== 200 || !res.headers.get("content-type")?.startsWith("text/html")) throw new Error(`GET ${path} answered ${res.status}`);
    return res.text();
  };
  return { ctx, app, html };
}

/** Undoes hono/html's escaping of text and attribute values. */
export const unescapeHtml = (s: string) =>
  s.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&amp;", "&");

/** hono/html's escaping, to find plain text in a page. */
export const escapeHtml = (s: string) =>
  s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#39;");
