import type { Context } from "hono";
import type { CreditsService } from "../../services/credits/credits-service.js";
import type { HandlerContext } from "../registry.js";
import type { PaidRoute } from "./types.js";

export interface CreditBypass {
  /** A response paid from the bundle in X-Credit-Id, or null to fall through to x402. */
  tryPay(c: Context, route: PaidRoute, hctx: HandlerContext, produce: () => Promise<Response>): Promise<Response | null>;
}

/**
 * X-Credit-Id replaces the per-call payment while the bundle is valid (spec 3.1). One call is
 * spent atomically before the handler runs and given back if the answer fails, so a payer is
 * never charged for an answer they did not get. Unusable bundles fall through to 402.
 */
export function createCreditBypass(credits: CreditsService): CreditBypass {
  return {
    async tryPay(c, _route, hctx, produce) {
      const creditId = c.req.header("x-credit-id")?.trim();
      if (!creditId) return null;
      const spent = await credits.spend(creditId);
      if (!spent) return null;

      hctx.payment = { kind: "credit", payer: spent.payerAddress, network: spent.paymentNetwork ?? "", amountAtomic: "0" };
      let response: Response;
      try {
        response = await produce();
      } catch (err) {
        await credits.refund(creditId);
        throw err;
      }
      if (response.status >= 400) {
        await credits.refund(creditId);
        return response;
      }
      response.headers.set("x-credit-balance", String(spent.balance));
      response.headers.set("x-credit-expires-at", spent.expiresAt.toISOString());
      return response;
    },
  };
}
