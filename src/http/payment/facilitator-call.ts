import { SettleError, VerifyError, type SettleResponse, type VerifyResponse } from "@x402/core/types";
import { ApiError } from "../errors.js";

/** The facilitator did not answer verification: a 503 that settles nothing (docs/payments.md "Promises"). */
export class FacilitatorUnavailable extends ApiError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(
      503,
      "facilitator_unavailable",
      `payment facilitator unavailable: ${message}; nothing was settled, retry shortly`,
      { payment_settled: false, settlement_skipped: true, retry_after_seconds: 30 },
      { "retry-after": "30" },
    );
    if (options?.cause) this.cause = options.cause;
  }
}

/** Runs one facilitator call, failing with FacilitatorUnavailable when it throws or outlasts `timeoutMs`. */
export async function facilitatorCall<T>(what: string, timeoutMs: number, call: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      call(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new FacilitatorUnavailable(`${what} timed out after ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } catch (err) {
    if (err instanceof FacilitatorUnavailable) throw err;
    throw new FacilitatorUnavailable(`${what} failed: ${describe(err)}`, { cause: err });
  } finally {
    clearTimeout(timer);
  }
}

/** A remote facilitator reports a refusal by throwing; it is a 402, not an outage. */
export function refusedVerify(err: unknown): VerifyResponse {
  if (err instanceof VerifyError) return { isValid: false, invalidReason: err.invalidReason, invalidMessage: err.invalidMessage, payer: err.payer };
  throw err;
}
export function refusedSettle(err: unknown): SettleResponse {
  if (err instanceof SettleError)
    return { success: false, errorReason: err.errorReason, errorMessage: err.errorMessage, transaction: err.transaction, network: err.network };
  throw err;
}

/** x402's non-final outcome: broadcast, confirmation not yet seen. */
export const isSettlementPending = (s: SettleResponse) => !s.success && s.errorReason === "settlement_pending";

/**
 * Facilitators return multi-line revert dumps (viem's opens with "The contract function ... reverted
 * with the following reason:"); the payer gets the revert reason itself, else the first line.
 */
export const brief = (message: string | undefined) => (message ? `: ${reasonOf(message).slice(0, 200)}` : "");

function reasonOf(message: string): string {
  const reverted = /reverted with the following reason:\s*\n\s*(\S[^\n]*)/.exec(message) ?? /execution reverted:\s*(\S[^\n]*)/.exec(message);
  return (reverted?.[1] ?? message.split("\n")[0]!).trim();
}

export const describe = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 500);
