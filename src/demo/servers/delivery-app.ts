import type { RoutesConfig } from "@x402/core/server";
import { Hono, type Context } from "hono";
import type { Clock } from "../../lib/clock.js";
import { offSchema } from "../answers/delivery.js";
import type { ListingSpec } from "../plan/listing-spec.js";
import { failure, requestInput } from "./behaviours.js";
import { routeConfig, type PaymentTerms } from "./payment-terms.js";
import { settleFirst } from "./settle-first.js";

export interface DeliveryAppOptions {
  terms: PaymentTerms;
  origin: string;
  listings: readonly ListingSpec[];
  clock: Clock;
}

type Handler = (c: Context) => Promise<Response> | Response;

/**
 * Northwind Data's host (plan/delivery.ts): every route behind the settle-first middleware, so
 * the payment has moved on chain before any of these answers. `paid_ok` then delivers; the rest
 * fail after payment, each its own way.
 */
export function deliveryApp(opts: DeliveryAppOptions): Hono {
  const listedAt = opts.clock.now();
  const key = (l: ListingSpec) => `${l.method} ${l.path}`;
  const routes: RoutesConfig = Object.fromEntries(opts.listings.map((l) => [key(l), routeConfig(opts.terms, l, `${opts.origin}${l.path}`, listedAt)]));
  const app = new Hono();
  app.use("*", settleFirst(routes, opts.terms.resourceServer));
  for (const l of opts.listings) app.on(l.method, l.path, afterPayment(l, opts.clock, listedAt));
  return app;
}

function afterPayment(l: ListingSpec, clock: Clock, listedAt: Date): Handler {
  const answer = async (c: Context) => l.answer(await requestInput(c), clock.now());
  switch (l.kind) {
    case "paid_500":
      return (c) => failure(c, 500);
    case "paid_empty":
      return (c) => c.body(null, 200);
    case "paid_canned": {
      // Its declared output example, byte for byte, whatever was asked.
      const canned = JSON.stringify(l.answer(l.input, listedAt));
      return (c) => c.body(canned, 200, { "content-type": "application/json" });
    }
    case "paid_off_schema":
      return async (c) => c.json(offSchema(await answer(c), l.outputSchema) as object);
    case "paid_401":
      return (c) => {
        c.header("www-authenticate", 'Bearer realm="northwind", error="invalid_token"');
        return c.json({ error: "unauthorized", message: "Missing or invalid API key. Create one at the Northwind dashboard." }, 401);
      };
    default:
      return async (c) => c.json((await answer(c)) as object);
  }
}
