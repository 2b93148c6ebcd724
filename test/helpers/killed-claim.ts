import { decodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload } from "@x402/core/types";
import { authorizationKey } from "../../src/services/payments/authorization-key.js";
import { identifierHash } from "../../src/services/payments/sealed-answer.js";
import type { PaidService } from "./paid-service.js";

/** What a process killed between claim and settle had written for a signed payment: the claim, and nothing after it. */
export async function claimAsKilled(svc: PaidService, header: string, route: string, paymentId: string | null) {
  const payload = decodePaymentSignatureHeader(header) as PaymentPayload;
  const auth = (payload.payload as { authorization: { from: string; nonce: string; validBefore: string } }).authorization;
  await svc.ctx.services.payments.claim({
    key: authorizationKey(payload),
    route,
    requestId: "killed",
    payer: auth.from,
    network: payload.accepted.network,
    scheme: "exact",
    asset: payload.accepted.asset,
    payTo: payload.accepted.payTo,
    amountAtomic: payload.accepted.amount,
    authorizer: auth.from,
    nonce: auth.nonce,
    validBefore: auth.validBefore,
    identifierHash: paymentId ? identifierHash(paymentId) : null,
  });
  return { payload, auth };
}
