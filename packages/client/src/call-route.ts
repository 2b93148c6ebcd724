import type { Network } from "@x402/core/types";
import type { ClientEvmSigner } from "@x402/evm";
import { decodePaymentResponseHeader } from "@x402/fetch";
import { answerSchema, type AnyRouteContract } from "@x402-lookout/contracts";
import { usdcToAtomic } from "@x402-lookout/contracts/usdc";
import type { CreditBundle } from "./credit-bundle.js";
import { inputError } from "./check-input.js";
import { collectedCredit, collectPending } from "./collect-pending.js";
import { errorFromResponse } from "./error-from-response.js";
import { LookoutNetworkError, LookoutTimeoutError, PaymentError, ResponseShapeError, type LookoutError } from "./errors.js";
import { payingFetch, tracing, type PaymentTrace } from "./paying-fetch.js";
import { routeRequest } from "./route-request.js";
import type { CallInfo, CallOptions } from "./types.js";
import type { VerdictVerifier } from "./verdicts.js";

export interface CallDeps {
  baseUrl: string;
  fetch: typeof fetch;
  signer: ClientEvmSigner | undefined;
  networks: readonly Network[];
  /** The most one call may pay, in USDC; routes priced above it are refused unsent. */
  maxPaymentUsdc: string | undefined;
  timeoutMs: number;
  validateResponses: boolean;
  credit: CreditBundle | null;
  onCall: ((info: CallInfo) => void) | undefined;
  /** Checks the signed verdicts of preflight, trial, batch and forensics answers; null: not checked. */
  verifyVerdicts: VerdictVerifier | null;
}

/**
 * One call of one route: the request from its contract, the credit bundle where the route takes
 * one, an x402 payment of at most the route's own price, a time-out, and a typed error for any
 * answer but 200.
 */
export async function callRoute(contract: AnyRouteContract, input: Record<string, unknown>, deps: CallDeps, options: CallOptions = {}): Promise<unknown> {
  const trace: PaymentTrace = { sent: false };
  if (contract.price !== null) refuseAboveCap(contract.id, contract.price, deps.maxPaymentUsdc);
  const { path, init } = routeRequest(contract, input);
  const refused = inputError(contract, init);
  if (refused) throw refused;
  const credit = contract.acceptsCredits && deps.credit?.usable ? deps.credit : null;
  if (credit) (init.headers as Record<string, string>)["x-credit-id"] = credit.creditId;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? deps.timeoutMs);
  init.signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const send =
    contract.price !== null && deps.signer ? await payingFetch(deps.fetch, deps.signer, deps.networks, contract.price, trace) : tracing(deps.fetch, trace);

  let res: Response;
  let body: unknown;
  try {
    res = await send(`${deps.baseUrl}${path}`, init);
    // Paid per call, or a 402 despite the bundle: either way the bundle could not pay.
    credit?.observe(res, trace.sent || res.status === 402);
    const signature = trace.header;
    if (res.status === 202 && signature) {
      res = await collectPending(
        res,
        () => deps.fetch(`${deps.baseUrl}${path}`, { ...init, headers: { ...(init.headers as Record<string, string>), "payment-signature": signature } }),
        init.signal,
      );
      body = res.status === 409 ? await collectedCredit(res) : undefined;
    }
    if (!res.ok && body === undefined)
      throw await pendingAware(await errorFromResponse(res, contract.id, trace.sent, hint(res, deps, credit !== null)), signature);
    body ??= await res.json();
  } catch (err) {
    if (options.signal?.aborted) throw options.signal.reason;
    throw transportError(err, contract.id, trace);
  }
  deps.onCall?.({
    routeId: contract.id,
    status: res.status,
    paymentSent: trace.sent,
    transaction: settlementOf(res),
    creditBalance: credit && !trace.sent ? credit.state().balance : null,
  });
  if (deps.verifyVerdicts && contract.signedVerdicts) await deps.verifyVerdicts(contract, input, body, { routeId: contract.id, paymentSent: trace.sent });
  if (deps.validateResponses) {
    const parsed = answerSchema(contract).safeParse(body);
    if (!parsed.success) {
      throw new ResponseShapeError(`${contract.id}: the answer does not match the route's schema: ${parsed.error.message}`, {
        routeId: contract.id,
        code: "response_shape",
        status: res.status,
        paymentSent: trace.sent,
        paymentSettled: trace.sent,
      });
    }
  }
  return body;
}

/** A 202 that outlasted the call: the caller gets the signed payment that can still collect it. */
function pendingAware(err: LookoutError, signature: string | undefined): LookoutError {
  if (err.status === 202 && err.body && signature) err.body.payment_signature = signature;
  return err;
}

function refuseAboveCap(routeId: string, price: string, cap: string | undefined): void {
  if (cap === undefined || BigInt(usdcToAtomic(price)) <= BigInt(usdcToAtomic(cap))) return;
  throw new PaymentError(`${routeId} costs ${price} USDC, above the spend cap of ${cap} USDC per call; nothing was sent`, {
    routeId,
    code: "spend_cap",
    status: null,
    paymentSent: false,
    paymentSettled: false,
  });
}

function hint(res: Response, deps: CallDeps, presentedCredit: boolean): string | undefined {
  if (res.status !== 402) return undefined;
  if (!deps.signer) return presentedCredit ? "the credit bundle is exhausted or expired and no signer is configured" : "no signer is configured to pay it";
  return undefined;
}

function transportError(err: unknown, routeId: string, trace: PaymentTrace): LookoutError {
  if (err instanceof Error && "routeId" in err) return err as LookoutError;
  const init = { routeId, status: null, paymentSent: trace.sent, paymentSettled: trace.sent ? null : false, cause: err };
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof Error && err.name === "TimeoutError")
    return new LookoutTimeoutError(`${routeId}: no answer in time${trace.sent ? "; the payment was sent and may settle" : ""}`, { ...init, code: "timeout" });
  if (err instanceof TypeError) return new LookoutNetworkError(`${routeId}: ${message}${causeOf(err)}`, { ...init, code: "network" });
  if (err instanceof SyntaxError)
    return new ResponseShapeError(`${routeId}: the answer is not JSON`, { ...init, code: "response_shape", paymentSettled: trace.sent });
  // @x402/fetch throws plain Errors when it cannot read the challenge or will not pay it.
  return new PaymentError(`${routeId}: ${message}`, { ...init, code: "payment_refused" });
}

const causeOf = (err: Error) => (err.cause instanceof Error ? ` (${err.cause.message})` : "");

function settlementOf(res: Response): string | null {
  const header = res.headers.get("payment-response");
  if (!header) return null;
  try {
    return decodePaymentResponseHeader(header).transaction ?? null;
  } catch {
    return null;
  }
}
