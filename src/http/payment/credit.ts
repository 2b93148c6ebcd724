import { nowOrLater } from "../../lib/retry-later.js";
import type { CreditsService } from "../../services/index.js";
import type { PaymentMetrics } from "../metrics.js";
import type { Covered, PaidRoute, PaymentRequest, Settlement } from "./types.js";

type Credit = Extract<Covered, { kind: "credit" }>;

export interface CreditBranch {
  /** The call paid from the bundle in X-Credit-Id, or null to fall through to x402. */
  decide(req: PaymentRequest): Promise<Credit | null>;
  /** Keeps the spent call for an answer below 400 (saying what the bundle has left); else gives it back. */
  settle(credit: Credit, route: PaidRoute, answer: Response, req: PaymentRequest): Promise<Settlement>;
  /** The handler threw: the call is given back. */
  abandon(credit: Credit, req: PaymentRequest): Promise<void>;
}

/**
 * X-Credit-Id replaces the per-call payment while the bundle is valid (docs/payments.md "Credits"). One call is
 * spent atomically before the handler runs and given back if the answer fails (later, if the
 * database is down just then), so a payer is never charged for an answer they did not get.
 * Unusable bundles fall through to 402.
 */
export function createCreditBranch(credits: CreditsService, metrics?: PaymentMetrics): CreditBranch {
  // When the database failed the answer it may fail the refund too: then the call is given
  // back once it is reachable again.
  const refund = (credit: Credit, req: PaymentRequest) => nowOrLater("refund a call of a credit bundle", () => credits.refund(credit.creditId), req.log);
  return {
    async decide(req) {
      const creditId = req.header("x-credit-id")?.trim();
      if (!creditId) return null;
      const spent = await credits.spend(creditId);
      if (!spent) return null;
      const payment = { kind: "credit" as const, payer: spent.payerAddress, network: spent.paymentNetwork ?? "", amountAtomic: "0" };
      return { kind: "credit", payment, creditId, balance: spent.balance, expiresAt: spent.expiresAt };
    },
    async settle(credit, route, answer, req): Promise<Settlement> {
      if (answer.status >= 400) {
        await refund(credit, req);
        return { kind: "kept", settled: false, headers: {} };
      }
      metrics?.creditCallsSpent.inc({ route: route.id });
      return { kind: "kept", settled: false, headers: { "x-credit-balance": String(credit.balance), "x-credit-expires-at": credit.expiresAt.toISOString() } };
    },
    abandon: refund,
  };
}
