import { paymentMiddleware } from "@x402/hono";
import { Hono } from "hono";
import type { Clock } from "../../lib/clock.js";
import { oraclePrice } from "../answers/markets-web.js";
import type { ListingSpec } from "../plan/listing-spec.js";
import { WILDCARD_REAL_PATHS } from "../plan/other-hosts.js";
import { routeConfig, type PaymentTerms } from "./payment-terms.js";

/**
 * The wildcard-402 host: one catch-all paid route, so every path (listed, synthetic or made up)
 * answers a real x402 challenge. Only /sitemap.xml is free; it names the real feeds, which is
 * what the service should count instead of the listed paths.
 */
export function wildcardApp(opts: { terms: PaymentTerms; origin: string; listings: readonly ListingSpec[]; clock: Clock }): Hono {
  const model = opts.listings[0];
  if (!model) throw new Error("the wildcard host needs at least one listing");
  // No discovery declaration on the catch-all: the SDK warns that "*" makes poor discovery
  // metadata, and a host like this one would not have written one.
  const { extensions: _unused, ...catchAll } = {
    ...routeConfig(opts.terms, model, undefined, opts.clock.now()),
    description: "Signed price oracle: any /v1/price/<pair> path, aggregated from five signers.",
  };

  const app = new Hono();
  app.get("/sitemap.xml", (c) => {
    const urls = WILDCARD_REAL_PATHS.map((p) => `  <url><loc>${opts.origin}${p}</loc><changefreq>always</changefreq></url>`).join("\n");
    c.header("content-type", "application/xml; charset=utf-8");
    return c.body(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`);
  });
  app.use("*", paymentMiddleware({ "*": catchAll }, opts.terms.resourceServer, undefined, undefined, false));
  app.all("*", (c) => c.json(oraclePrice(c.req.path, opts.clock.now()) as object));
  return app;
}
