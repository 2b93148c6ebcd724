import type { RoutesConfig } from "@x402/core/server";
import { paymentMiddleware } from "@x402/hono";
import { Hono } from "hono";
import type { Clock } from "../../lib/clock.js";
import type { ListingSpec } from "../plan/listing-spec.js";
import { failure, flapIsDown, msToNextFlap, requestInput, sleep } from "./behaviours.js";
import { routeConfig, type PaymentTerms } from "./payment-terms.js";
import { earlyDeath, enlargeChallenge, missingInput, unprocessable } from "./ecosystem-shapes.js";
import { servedOption } from "./quote-tricks.js";

export interface MerchantAppOptions {
  terms: PaymentTerms;
  origin: string;
  listings: readonly ListingSpec[];
  clock: Clock;
  slowMs: number;
  flapPeriodMs: number;
  /** When the switching quote traps change terms (servers/quote-tricks.ts). */
  switchAt: Date;
}

const routeKey = (method: string, path: string) => `${method} ${path}`;

/**
 * One merchant host: each listing's path behind the x402 SDK's own Hono middleware. Faults are
 * applied before the middleware, as a crashed or overloaded app would show them to a naked
 * request: always-failing listings never reach it, the slow one reaches it late, the flapping
 * one reaches it only while up; the ecosystem's shapes (ecosystem-shapes.ts) too. A quote trap's
 * terms are resolved per request (quote-tricks.ts).
 */
export function merchantApp(opts: MerchantAppOptions): Hono {
  const byKey = new Map(opts.listings.map((l) => [routeKey(l.method, l.path), l]));
  const live = opts.listings.filter((l) => l.failStatus === undefined);
  const routes: RoutesConfig = Object.fromEntries(
    live.map((l) => [
      routeKey(l.method, l.path),
      { ...routeConfig(opts.terms, l, `${opts.origin}${l.path}`, opts.clock.now()), accepts: servedOption(opts.terms, l, opts) },
    ]),
  );

  const diesNow = earlyDeath(() => opts.clock.now());
  const app = new Hono();
  app.use("*", async (c, next) => {
    const listing = byKey.get(routeKey(c.req.method, c.req.path));
    if (listing?.failStatus !== undefined) return failure(c, listing.failStatus);
    if (listing?.kind === "dies_early" && diesNow(listing.path)) return failure(c, 500);
    if (listing?.kind === "needs_input") return unprocessable(c, []);
    const missing = listing?.kind === "needs_query" ? await missingInput(c, listing) : [];
    if (missing.length) return unprocessable(c, missing);
    if (listing?.kind === "slow") await sleep(opts.slowMs);
    if (listing?.kind === "flapping" && flapIsDown(opts.flapPeriodMs)) {
      c.header("retry-after", String(Math.ceil(msToNextFlap(opts.flapPeriodMs) / 1000)));
      return c.json({ error: "upstream_unavailable", message: "Exchange feed disconnected, reconnecting." }, 503);
    }
    await next();
    if (listing?.kind === "big_challenge") enlargeChallenge(c);
  });
  // The shared resource server was initialised before any app was built; letting each
  // middleware initialise it again would clear its facilitator tables while others use them.
  app.use("*", paymentMiddleware(routes, opts.terms.resourceServer, undefined, undefined, false));
  for (const l of live) {
    app.on(l.method, l.path, async (c) => c.json(l.answer(await requestInput(c), opts.clock.now()) as object));
  }
  return app;
}
