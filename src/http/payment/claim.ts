import { nowOrLater } from "../../lib/retry-later.js";
import type { PaymentClaim, PaymentLedger } from "../../services/index.js";
import type { ApiError } from "../errors.js";
import { describe } from "./facilitator-call.js";
import { identifierConflict, paymentInProgress } from "./payment-errors.js";
import type { CheckedPayment } from "./read-payment.js";
import type { PaymentRequest } from "./types.js";

/**
 * Claims a verified payment for this request, or returns the 409 that says why it cannot be.
 * A claim statement that failed without an answer may still have committed: it is released
 * once the database answers, so the same authorization can pay for a retry.
 */
export async function claimPayment(
  ledger: PaymentLedger,
  payment: CheckedPayment,
  routeId: string,
  payer: string,
  identifierHash: string | null,
  req: PaymentRequest,
): Promise<PaymentClaim | ApiError> {
  const { requirement, signed, key } = payment;
  const claim = await ledger
    .claim({
      key,
      route: routeId,
      requestId: req.requestId,
      payer,
      network: requirement.network,
      scheme: requirement.scheme,
      asset: requirement.asset,
      payTo: requirement.payTo,
      amountAtomic: requirement.amount,
      authorizer: signed.authorization.from,
      nonce: signed.authorization.nonce,
      validBefore: signed.authorization.validBefore,
      identifierHash,
    })
    .catch(async (err: unknown) => {
      // SQLSTATE 23505: another request took this payment-identifier for another payment just now.
      if ((err as { code?: string } | null)?.code === "23505") return identifierConflict();
      await nowOrLater(
        `release unconfirmed payment claim of request ${req.requestId}`,
        () => ledger.releaseUnconfirmed(key, req.requestId, describe(err)),
        req.log,
      );
      throw err;
    });
  return claim ?? paymentInProgress();
}
