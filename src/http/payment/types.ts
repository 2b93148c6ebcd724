import type { Context } from "hono";
import type { AnyRouteDef, HandlerContext } from "../registry.js";

export type PaidRoute = AnyRouteDef & { price: string };

/** The x402 v2 PaymentRequired object (spec section 5.3). */
export interface PaymentRequired {
  x402Version: 2;
  error?: string;
  resource: { url: string; description: string; mimeType: string };
  accepts: Array<{
    scheme: "exact";
    network: string;
    asset: string;
    amount: string;
    payTo: string;
    maxTimeoutSeconds: number;
    extra?: Record<string, unknown>;
  }>;
  extensions?: Record<string, unknown>;
}

/**
 * Payment lives at the edge, in one module. The route mount hands the gate a `produce`
 * callback; the gate decides whether it may run and whether its answer is charged.
 */
export interface PaymentGate {
  /** Answers 402 when unpaid; otherwise runs `produce` and settles only an answer below 400. */
  charge(c: Context, route: PaidRoute, hctx: HandlerContext, produce: () => Promise<Response>): Promise<Response>;
  /** Whether the request carries a payment header or a credit id this route would take. */
  carriesPayment(c: Context, route: PaidRoute): boolean;
  /** Whether the request offers a credit id this route would take (not whether the bundle is good). */
  offersCredit(c: Context, route: PaidRoute): boolean;
  /** The challenge for a route, as sent in 402 answers and shown on reference pages. */
  paymentRequired(route: PaidRoute, error?: string): PaymentRequired;
}
