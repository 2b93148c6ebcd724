import { nowOrLater } from "../../lib/retry-later.js";
import type { PaymentClaim, PaymentLedger } from "../../services/index.js";
import type { HandlerContext } from "../registry.js";
import { describe } from "./facilitator-call.js";
import { identifierConflict, paymentInProgress } from "./payment-errors.js";
import type { CheckedPayment } from "./read-payment.js";

/**
 * Claims a verified payment for this request, or throws the 409 that says why it cannot be.
 * A claim statement that failed without an answer may still have committed: it is released
 * once the database answers, so the same authorization can pay for a retry.
 */
export async function claimPayment(
  ledger: PaymentLedger,
  payment: CheckedPayment,
  routeId: string,
  payer: string,
  identifierHash: string | null,
  hctx: HandlerContext,
): Promise<PaymentClaim> {
  const { requirement: req, signed, key } = payment;
  const claim = await ledger
    .claim({
      key,
      route: routeId,
      requestId: hctx.requestId,
      payer,
      network: req.network,
      scheme: req.scheme,
      asset: req.asset,
      payTo: req.payTo,
      amountAtomic: req.amount,
      authorizer: signed.authorization.from,
      nonce: signed.authorization.nonce,
      validBefore: signed.authorization.validBefore,
      identifierHash,
    })
    .catch(async (err: unknown) => {
      // SQLSTATE 23505: another request took this payment-identifier for another payment just now.
      if ((err as { code?: string } | null)?.code === "23505") throw identifierConflict();
      await nowOrLater(
        `release unconfirmed payment claim of request ${hctx.requestId}`,
        () => ledger.releaseUnconfirmed(key, hctx.requestId, describe(err)),
        hctx.log,
      );
      throw err;
    });
  if (!claim) throw paymentInProgress();
  return claim;
}
