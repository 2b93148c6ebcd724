import { identifierHash, openAnswer, RECLAIMABLE, type ChainReader, type LedgerRow, type PaymentLedger, type StoredAnswer } from "../../services/index.js";
import { paymentAlreadyUsed, paymentInProgress } from "./payment-errors.js";
import type { CheckedPayment } from "./read-payment.js";
import { pendingAnswer, receiptHeaders, type Receipt } from "./settle.js";
import type { Answer, Decision, PaidRoute } from "./types.js";

/**
 * The decision for a payment whose authorization the ledger already holds, or null when it may
 * pay again (nothing of it reached the chain). Everything in a settled authorization is public, so
 * only the payer's payment-identifier, which never goes on chain, retrieves what it bought.
 */
export async function decideKnownPayment(
  known: LedgerRow,
  payment: CheckedPayment,
  route: PaidRoute,
  requestId: string,
  deps: ReplayDeps,
): Promise<Decision | null> {
  const refused = (answer: Answer): Decision => ({ kind: "refused", answer });
  if (RECLAIMABLE.includes(known.status)) {
    if (ownRetry(known, payment, route)) return null;
    return refused(
      paymentAlreadyUsed(
        "this payment authorization was released unsettled (nothing was charged) and pays again only for its own payer's retry: the same route with the payment-identifier of the request that claimed it; sign a new payment",
      ),
    );
  }
  const proved = payment.identifier !== null && known.identifierHash === identifierHash(payment.identifier);
  if (!proved) {
    const answer = paymentAlreadyUsed(
      "this payment authorization was already used; a retry gets its answer only with the payment-identifier the original request sent",
    );
    return { kind: "replayed", paymentId: null, answer };
  }
  if (known.status === "claimed") return refused(paymentInProgress());
  const row = known.status === "settling" ? await confirmFromChain(known, payment, deps) : known;
  if (row.status === "settling") return { kind: "refused", answer: pendingAnswer(requestId, row.txHash, row.network) };
  const stored = row.sealedAnswer ? openAnswer(row.sealedAnswer, payment.identifier!, payment.key) : undefined;
  const receipt = { success: true, transaction: row.txHash ?? "", network: row.network as `${string}:${string}`, payer: row.payer ?? undefined };
  const answer = stored ? storedAnswer(stored, receipt) : paymentAlreadyUsed("this payment already paid for an answer, and no copy of it is kept");
  return { kind: "replayed", paymentId: row.id, answer };
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

/** A stored answer handed again to the payer who bought it, with its receipt. */
function storedAnswer(answer: StoredAnswer, receipt: Receipt): Answer {
  const headers = new Headers(answer.headers);
  for (const [name, value] of Object.entries(receiptHeaders(receipt))) headers.set(name, value);
  return { status: answer.status, headers: Object.fromEntries(headers), text: answer.body };
}
