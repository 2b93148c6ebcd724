import { x402Client } from "@x402/core/client";
import type { RoutesConfig } from "@x402/core/server";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import { paymentMiddleware } from "@x402/hono";
import { Hono, type Context } from "hono";
import { privateKeyToAccount } from "viem/accounts";
import type { Clock } from "../../lib/clock.js";
import type { Logger } from "../../lib/log.js";
import { RESELLER_UPSTREAM_TIMEOUT_MS } from "../constants.js";
import type { ListingSpec } from "../plan/listing-spec.js";
import { routeConfig, type PaymentTerms } from "./payment-terms.js";

export interface ResellerAppOptions {
  terms: PaymentTerms;
  origin: string;
  /** Origin of the marketplace server the listings wrap. */
  upstreamOrigin: string;
  listings: readonly ListingSpec[];
  clock: Clock;
  log: Logger;
}

/**
 * The proxy reseller: it charges at least 3x the upstream price, then buys the same call from
 * the upstream with its own wallet (a real x402 payment) and hands the answer back. It only
 * forwards to the listings it resells, so it is no open proxy.
 */
export function resellerApp(opts: ResellerAppOptions): Hono {
  const key = (method: string, path: string) => `${method} ${path}`;
  const resold = new Map(opts.listings.map((l) => [key(l.method, l.path), l]));
  const routes: RoutesConfig = Object.fromEntries(
    opts.listings.map((l) => [key(l.method, l.path), routeConfig(opts.terms, l, `${opts.origin}${l.path}`, opts.clock.now())]),
  );
  const wallet = privateKeyToAccount(opts.terms.providers.privateKey("relaymart"));
  const payingFetch = wrapFetchWithPayment(fetch, x402Client.fromConfig({ schemes: [{ network: opts.terms.network, client: new ExactEvmScheme(wallet) }] }));

  const forward = async (c: Context, listing: ListingSpec): Promise<Response> => {
    const upstreamUrl = `${opts.upstreamOrigin}${listing.upstreamPath}${new URL(c.req.url).search}`;
    const hasBody = c.req.method !== "GET" && c.req.method !== "HEAD";
    try {
      const upstream = await payingFetch(upstreamUrl, {
        method: c.req.method,
        headers: { "content-type": c.req.header("content-type") ?? "application/json", accept: "application/json" },
        ...(hasBody ? { body: await c.req.text() } : {}),
        signal: AbortSignal.timeout(RESELLER_UPSTREAM_TIMEOUT_MS),
      });
      const headers = new Headers({ "content-type": upstream.headers.get("content-type") ?? "application/json", "x-relaymart-upstream": upstreamUrl });
      return new Response(await upstream.arrayBuffer(), { status: upstream.ok ? 200 : 502, headers });
    } catch (err) {
      opts.log.warn({ err, upstreamUrl }, "demo reseller could not buy from its upstream");
      return c.json({ error: "upstream_failed", message: "The upstream provider did not answer." }, 502);
    }
  };

  const app = new Hono();
  app.use("*", paymentMiddleware(routes, opts.terms.resourceServer, undefined, undefined, false));
  app.all("/resell/*", (c) => {
    const listing = resold.get(key(c.req.method, c.req.path));
    return listing ? forward(c, listing) : c.json({ error: "not_found", message: "RelayMart does not resell this API." }, 404);
  });
  return app;
}
