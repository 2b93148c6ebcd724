import type { Context } from "hono";
import { nowOrLater } from "../../lib/retry-later.js";
import type { CreditsService } from "../../services/index.js";
import type { HandlerContext } from "../registry.js";
import type { PaidRoute } from "./types.js";
import type { PaymentMetrics } from "../metrics.js";

export interface CreditBypass {
  /** A response paid from the bundle in X-Credit-Id, or null to fall through to x402. */
  tryPay(c: Context, route: PaidRoute, hctx: HandlerContext, produce: () => Promise<Response>): Promise<Response | null>;
}

/**
 * X-Credit-Id replaces the per-call payment while the bundle is valid (spec 3.1). One call is
 * spent atomically before the handler runs and given back if the answer fails (later, if the
 * database is down just then), so a payer is never charged for an answer they did not get.
 * Unusable bundles fall through to 402.
 */
export function createCreditBypass(credits: CreditsService, metrics?: PaymentMetrics): CreditBypass {
  return {
    async tryPay(c, route, hctx, produce) {
      const creditId = c.req.header("x-credit-id")?.trim();
      if (!creditId) return null;
      const spent = await credits.spend(creditId);
      if (!spent) return null;

      hctx.payment = { kind: "credit", payer: spent.payerAddress, network: spent.paymentNetwork ?? "", amountAtomic: "0" };
      // When the database failed the answer it may fail the refund too: then the call is given
      // back once it is reachable again.
      const refund = () => nowOrLater("refund a call of a credit bundle", () => credits.refund(creditId), hctx.log);
      let response: Response;
      try {
        response = await produce();
      } catch (err) {
        await refund();
        throw err;
      }
      if (response.status >= 400) {
        await refund();
        return response;
      }
      metrics?.creditCallsSpent.inc({ route: route.id });
      response.headers.set("x-credit-balance", String(spent.balance));
      response.headers.set("x-credit-expires-at", spent.expiresAt.toISOString());
      return response;
    },
  };
}
