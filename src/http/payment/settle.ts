import type { Context } from "hono";
import type { x402ResourceServer } from "@x402/core/server";
import type { SettleResponse } from "@x402/core/types";
import { nowOrLater } from "../../lib/retry-later.js";
import { sealAnswer, type ChainReader, type PaymentClaim, type PaymentLedger } from "../../services/index.js";
import type { AppEnv } from "../app-env.js";
import { unavailable } from "../errors.js";
import type { HandlerContext } from "../registry.js";
import { brief, describe, facilitatorCall, isSettlementPending, refusedSettle } from "./facilitator-call.js";
import type { CheckedPayment } from "./read-payment.js";
import { pendingResponse } from "./replay.js";
import { setReceipt } from "./receipt.js";
import { reasonLabel, type PaymentMetrics } from "../metrics.js";

export interface SettleDeps {
  server: x402ResourceServer;
  ledger: PaymentLedger;
  timeoutMs: number;
  chain?: ChainReader;
  metrics?: PaymentMetrics;
}

/**
 * Settles a ready answer. The answer (sealed for the payer's payment-identifier) is recorded
 * before settlement is asked for, so nothing that settles can be lost; an outcome that is not
 * known yet is x402's settlement_pending, never "nothing was settled".
 */
export async function settleAnswer(
  c: Context,
  deps: SettleDeps,
  claim: PaymentClaim,
  payment: CheckedPayment,
  response: Response,
  hctx: HandlerContext,
  challenge: (error: string) => Response,
): Promise<Response> {
  const later = (what: string, work: () => Promise<unknown>) => nowOrLater(`${what} (payment ${claim.id})`, work, hctx.log);
  const ready = await storable(response);
  const sealed = payment.identifier ? sealAnswer(ready, payment.identifier, payment.key) : null;
  const pending = (transaction: string | null) => pendingResponse(c, transaction, payment.requirement.network, JSON.parse(ready.body));
  const mine = await deps.ledger.settling(claim, sealed).catch(async (err: unknown) => {
    await later("release a claim whose answer could not be recorded", () => deps.ledger.release(claim, describe(err)));
    throw err;
  });
  if (!mine) throw unavailable("the answer took too long and its payment claim was released; nothing was settled, retry with the same payment", 5);

  let result: SettleResponse;
  const started = performance.now();
  const took = (outcome: string) => deps.metrics?.settleSeconds.observe({ outcome }, (performance.now() - started) / 1000);
  try {
    result = await facilitatorCall("settle", deps.timeoutMs, () => deps.server.settlePayment(payment.forFacilitator, payment.requirement).catch(refusedSettle));
  } catch (err) {
    took("unknown");
    await later("record an uncertain settlement", () => deps.ledger.pending(claim, null, describe(err)));
    hctx.log.warn({ payment: claim.id, err: describe(err) }, "settlement outcome unknown; answer kept for the payer's retry");
    return pending(null);
  }
  took(isSettlementPending(result) ? "pending" : result.success ? "settled" : "refused");
  if (isSettlementPending(result)) {
    await later("record a pending settlement", () => deps.ledger.pending(claim, result.transaction || null, "settlement_pending"));
    return pending(result.transaction || null);
  }
  if (!result.success) {
    // A refusal because this authorization already landed (an earlier, timed-out attempt) is a payment.
    const onChain = await deps.chain
      ?.authorizationOutcome(payment.requirement.asset, payment.signed.authorization.from, payment.signed.authorization.nonce)
      .catch(() => undefined);
    if (onChain?.state !== "used") {
      deps.metrics?.failed.inc({ stage: "settle", reason: reasonLabel(result.errorReason) });
      await later("record a refused settlement", () => deps.ledger.failed(claim, result.errorReason ?? "settlement failed"));
      return challenge(
        `settlement_failed: ${result.errorReason ?? "the facilitator refused to settle"}${brief(result.errorMessage)}; nothing was charged and the answer is withheld`,
      );
    }
    result = { success: true, transaction: onChain.transaction, network: payment.requirement.network, payer: payment.signed.authorization.from };
  }
  (c as Context<AppEnv>).set("settled", true);
  const settled = result;
  await later("record a settlement", () =>
    deps.ledger.settled(claim, { transaction: settled.transaction, network: settled.network, payer: settled.payer ?? hctx.payment?.payer ?? null }),
  );
  setReceipt(response.headers, settled);
  return response;
}

async function storable(response: Response) {
  return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.clone().text() };
}
