import type { Context } from "hono";
import type { AppEnv } from "../app-env.js";
import { identifierHash, openAnswer, RECLAIMABLE, type ChainReader, type LedgerRow, type PaymentLedger, type StoredAnswer } from "../../services/index.js";
import { paymentAlreadyUsed, paymentInProgress } from "./payment-errors.js";
import type { HandlerContext } from "../registry.js";
import type { CheckedPayment } from "./read-payment.js";
import type { PaidRoute } from "./types.js";
import { setReceipt, type Receipt } from "./receipt.js";

/** How long a payer waits before asking again for an answer whose settlement is not confirmed. */
export const PENDING_RETRY_SECONDS = 5;

/**
 * The answer to a payment whose authorization the ledger already holds, or null when it may pay
 * again (nothing of it reached the chain). Everything in a settled authorization is public, so
 * only the payer's payment-identifier, which never goes on chain, retrieves what it bought.
 */
export async function answerKnownPayment(
  c: Context,
  known: LedgerRow,
  payment: CheckedPayment,
  route: PaidRoute,
  hctx: HandlerContext,
  deps: ReplayDeps,
): Promise<Response | null> {
  if (RECLAIMABLE.includes(known.status)) {
    if (ownRetry(known, payment, route)) return null;
    throw paymentAlreadyUsed(
      "this payment authorization was released unsettled (nothing was charged) and pays again only for its own payer's retry: the same route with the payment-identifier of the request that claimed it; sign a new payment",
    );
  }
  const proved = payment.identifier !== null && known.identifierHash === identifierHash(payment.identifier);
  if (!proved) {
    await route.onReplay?.(null, hctx);
    throw paymentAlreadyUsed("this payment authorization was already used; a retry gets its answer only with the payment-identifier the original request sent");
  }
  if (known.status === "claimed") throw paymentInProgress();
  const row = known.status === "settling" ? await confirmFromChain(known, payment, deps) : known;
  if (row.status === "settling") return pendingResponse(c, row.txHash, row.network);
  await route.onReplay?.(row.id, hctx);
  const answer = row.sealedAnswer ? openAnswer(row.sealedAnswer, payment.identifier!, payment.key) : undefined;
  if (!answer) throw paymentAlreadyUsed("this payment already paid for an answer, and no copy of it is kept");
  return storedResponse(answer, { success: true, transaction: row.txHash ?? "", network: row.network as `${string}:${string}`, payer: row.payer ?? undefined });
}

/**
 * A released or failed authorization was claimed by a request that got no answer it could use
 * (a crash, a failed handler, a refused settlement); anyone who saw its header could spend it
 * first. Only the payment-identifier, which never goes on chain, tells that request's payer from
 * them, so only a retry with it, on the same route, may claim it again; the ledger's claim
 * checks the same (docs/payments.md "Released authorizations").
 */
function ownRetry(known: LedgerRow, payment: CheckedPayment, route: PaidRoute): boolean {
  if (known.identifierHash === null || payment.identifier === null || known.route !== route.id) return false;
  return known.identifierHash === identifierHash(payment.identifier);
}

export interface ReplayDeps {
  ledger: PaymentLedger;
  chain?: ChainReader;
}

/** A pending settlement the payer asks about again: the chain may already know how it ended. */
async function confirmFromChain(row: LedgerRow, payment: CheckedPayment, deps: ReplayDeps): Promise<LedgerRow> {
  const auth = payment.signed.authorization;
  const outcome = await deps.chain?.authorizationOutcome(payment.requirement.asset, auth.from, auth.nonce).catch(() => undefined);
  if (outcome?.state !== "used") return row;
  await deps.ledger.settled({ id: row.id, key: payment.key }, { transaction: outcome.transaction, network: row.network, payer: row.payer ?? auth.from });
  return { ...row, status: "settled", txHash: outcome.transaction };
}

/**
 * x402's settlement_pending outcome: the answer is kept for a retry with the same
 * payment-identifier. The request that paid also gets it in `answer`: it may be charged, and what
 * it bought (a bundle, a watch, a certificate) works only once the settlement is confirmed.
 */
export function pendingResponse(c: Context, transaction: string | null, network: string, answer?: unknown): Response {
  c.header("retry-after", String(PENDING_RETRY_SECONDS));
  c.header("cache-control", "no-store");
  return c.json(
    {
      error: "settlement_pending",
      message:
        "the payment was sent for settlement and its confirmation is not yet seen; retry with the same PAYMENT-SIGNATURE and payment-identifier to collect the answer once it is confirmed (an authorization that never lands is released, and nothing is charged)",
      payment_settled: null,
      transaction,
      network,
      retry_after_seconds: PENDING_RETRY_SECONDS,
      request_id: (c as Context<AppEnv>).get("requestId"),
      ...(answer === undefined ? {} : { answer }),
    },
    202,
  );
}

function storedResponse(answer: StoredAnswer, receipt: Receipt): Response {
  const headers = new Headers(answer.headers);
  setReceipt(headers, receipt);
  return new Response(answer.body, { status: answer.status, headers });
}
