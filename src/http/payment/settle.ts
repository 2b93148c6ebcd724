import type { x402ResourceServer } from "@x402/core/server";
import { encodePaymentResponseHeader } from "@x402/core/http";
import type { SettleResponse } from "@x402/core/types";
import { nowOrLater } from "../../lib/retry-later.js";
import { sealAnswer, type ChainReader, type PaymentLedger } from "../../services/index.js";
import { unavailable } from "../errors.js";
import { brief, describe, facilitatorCall, isSettlementPending, refusedSettle } from "./facilitator-call.js";
import { reasonLabel, type PaymentMetrics } from "../metrics.js";
import type { Answer, Covered, PaymentRequest, Settlement } from "./types.js";

export interface SettleDeps {
  server: x402ResourceServer;
  ledger: PaymentLedger;
  timeoutMs: number;
  chain?: ChainReader;
  metrics?: PaymentMetrics;
}

type X402 = Extract<Covered, { kind: "x402" }>;

/**
 * Settles a ready answer. The answer (sealed for the payer's payment-identifier) is recorded
 * before settlement is asked for, so nothing that settles can be lost; an outcome that is not
 * known yet is x402's settlement_pending, never "nothing was settled". A refusal withholds the
 * answer behind `challenge`, the route's 402.
 */
export async function settlePayment(
  deps: SettleDeps,
  { claim, checked: payment, payment: info }: X402,
  response: Response,
  req: PaymentRequest,
  challenge: (error: string) => Answer,
): Promise<Settlement> {
  const later = (what: string, work: () => Promise<unknown>) => nowOrLater(`${what} (payment ${claim.id})`, work, req.log);
  const ready = await storable(response);
  const sealed = payment.identifier ? sealAnswer(ready, payment.identifier, payment.key) : null;
  const pending = (transaction: string | null): Settlement => ({
    kind: "withheld",
    answer: pendingAnswer(req.requestId, transaction, payment.requirement.network, JSON.parse(ready.body)),
  });
  const mine = await deps.ledger.settling(claim, sealed).catch(async (err: unknown) => {
    await later("release a claim whose answer could not be recorded", () => deps.ledger.release(claim, describe(err)));
    throw err;
  });
  if (!mine)
    return {
      kind: "withheld",
      answer: unavailable("the answer took too long and its payment claim was released; nothing was settled, retry with the same payment", 5),
    };

  let result: SettleResponse;
  const started = performance.now();
  const took = (outcome: string) => deps.metrics?.settleSeconds.observe({ outcome }, (performance.now() - started) / 1000);
  try {
    result = await facilitatorCall("settle", deps.timeoutMs, () => deps.server.settlePayment(payment.forFacilitator, payment.requirement).catch(refusedSettle));
  } catch (err) {
    took("unknown");
    await later("record an uncertain settlement", () => deps.ledger.pending(claim, null, describe(err)));
    req.log.warn({ payment: claim.id, err: describe(err) }, "settlement outcome unknown; answer kept for the payer's retry");
    return pending(null);
  }
  took(isSettlementPending(result) ? "pending" : result.success ? "settled" : "refused");
  if (isSettlementPending(result)) {
    await later("record a pending settlement", () => deps.ledger.pending(claim, result.transaction || null, "settlement_pending"));
    return pending(result.transaction || null);
  }
  if (!result.success) {
    // A refusal because this authorization already landed (an earlier, timed-out attempt) is a payment.
    const auth = payment.signed.authorization;
    const onChain = await deps.chain?.authorizationOutcome(payment.requirement.asset, auth.from, auth.nonce).catch(() => undefined);
    if (onChain?.state !== "used") {
      deps.metrics?.failed.inc({ stage: "settle", reason: reasonLabel(result.errorReason) });
      await later("record a refused settlement", () => deps.ledger.failed(claim, result.errorReason ?? "settlement failed"));
      const why = `settlement_failed: ${result.errorReason ?? "the facilitator refused to settle"}${brief(result.errorMessage)}`;
      return { kind: "withheld", answer: challenge(`${why}; nothing was charged and the answer is withheld`) };
    }
    result = { success: true, transaction: onChain.transaction, network: payment.requirement.network, payer: auth.from };
  }
  const settled = result;
  await later("record a settlement", () =>
    deps.ledger.settled(claim, { transaction: settled.transaction, network: settled.network, payer: settled.payer ?? info.payer ?? null }),
  );
  return { kind: "kept", settled: true, headers: receiptHeaders(settled) };
}

/** An answer that is not charged (the handler threw or answered 400 or more): the claim is released. */
export async function releasePayment(ledger: PaymentLedger, { claim }: X402, reason: string, req: PaymentRequest): Promise<void> {
  // A release the database refuses (it failed the answer too) is retried once it is back.
  await nowOrLater(`release payment claim ${claim.id}`, () => ledger.release(claim, reason), req.log);
}

async function storable(response: Response) {
  return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.clone().text() };
}

export type Receipt = Parameters<typeof encodePaymentResponseHeader>[0];

/**
 * The settlement receipt under x402 v2's name and v1's `X-PAYMENT-RESPONSE`, which clients built
 * on v1 still read (the x402station MCP adapter among them); both exposed to browsers.
 */
export function receiptHeaders(receipt: Receipt): Record<string, string> {
  const encoded = encodePaymentResponseHeader(receipt);
  return { "PAYMENT-RESPONSE": encoded, "X-PAYMENT-RESPONSE": encoded, "Access-Control-Expose-Headers": "PAYMENT-RESPONSE, X-PAYMENT-RESPONSE" };
}

/** How long a payer waits before asking again for an answer whose settlement is not confirmed. */
export const PENDING_RETRY_SECONDS = 5;

/**
 * x402's settlement_pending outcome: the answer is kept for a retry with the same
 * payment-identifier. The request that paid also gets it in `answer`: it may be charged, and what
 * it bought (a bundle, a watch, a certificate) works only once the settlement is confirmed.
 */
export function pendingAnswer(requestId: string, transaction: string | null, network: string, answer?: unknown): Answer {
  const message =
    "the payment was sent for settlement and its confirmation is not yet seen; retry with the same PAYMENT-SIGNATURE and payment-identifier to collect the answer once it is confirmed (an authorization that never lands is released, and nothing is charged)";
  return {
    status: 202,
    headers: { "retry-after": String(PENDING_RETRY_SECONDS), "cache-control": "no-store" },
    json: {
      error: "settlement_pending",
      message,
      payment_settled: null,
      transaction,
      network,
      retry_after_seconds: PENDING_RETRY_SECONDS,
      request_id: requestId,
      ...(answer === undefined ? {} : { answer }),
    },
  };
}
