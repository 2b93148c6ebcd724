/**
 * One error shape for every failure the API answers: `{ error, message, request_id, ...extra }`.
 * Routes throw ApiError (or a subclass), services a DomainError that ANSWERS maps; the app's
 * onError turns anything else into a 500 without leaking internals.
 */
import type { ErrorStatus } from "@x402-lookout/contracts/contract";
import type { AnyDomainError, DomainError, DomainErrorKind } from "../services/errors.js";

export type { ErrorStatus };

export class ApiError extends Error {
  constructor(
    readonly status: ErrorStatus,
    readonly code: string,
    message: string,
    /** Extra body fields, e.g. payment_settled on a 503. */
    readonly extra: Record<string, unknown> = {},
    /** Extra response headers, e.g. retry-after on a 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }

  /** Whether the same request can succeed later without change. */
  get retryable(): boolean {
    return this.status === 429 || this.status === 503;
  }
}

export const badRequest = (message: string, extra?: Record<string, unknown>) => new ApiError(400, "bad_request", message, extra);

export const notFound = (message: string, code = "not_found") => new ApiError(404, code, message);

export const unavailable = (message: string, retryAfterSeconds = 30, extra: Record<string, unknown> = {}) =>
  new ApiError(
    503,
    "service_unavailable",
    message,
    { payment_settled: false, settlement_skipped: true, retry_after_seconds: retryAfterSeconds, ...extra },
    { "retry-after": String(retryAfterSeconds) },
  );

export interface ErrorBody {
  error: string;
  message: string;
  request_id: string;
  [extra: string]: unknown;
}

export function errorBody(err: ApiError, requestId: string): ErrorBody {
  return { error: err.code, message: err.message, request_id: requestId, ...err.extra };
}

/** What a paid route's error says of its payment: settled or not, and on a 503 whether settlement was skipped. */
export const paymentFields = (status: ErrorStatus, settled: boolean) => ({
  payment_settled: settled,
  ...(status === 503 ? { settlement_skipped: !settled } : {}),
});

interface Answer<E> {
  status: ErrorStatus;
  code: (e: E) => string;
  fields?: (e: E) => Record<string, unknown>;
  headers?: (e: E) => Record<string, string>;
  /** The payment fields lead the body, as unavailable() has always written a 503. */
  paymentFirst?: true;
}

/** Each domain error kind's answer: the one place a service's failure becomes HTTP. */
const ANSWERS: { [K in DomainErrorKind]: Answer<Extract<AnyDomainError, { kind: K }>> } = {
  not_found: { status: 404, code: (e) => e.code },
  invalid_input: { status: 400, code: () => "bad_request" },
  quota_exceeded: {
    status: 429,
    code: () => "rate_limited",
    fields: (e) => ({ scope: e.scope, limit: e.limit, reset_at: e.resetAt.toISOString() }),
    headers: (e) => ({
      "retry-after": String(e.retryAfterSeconds),
      "x-rate-limit-reset": String(Math.floor(e.resetAt.getTime() / 1000)),
      "x-rate-limit-limit": String(e.limit),
    }),
  },
  unavailable: {
    status: 503,
    code: () => "service_unavailable",
    fields: (e) => ({ retry_after_seconds: e.retryAfterSeconds }),
    headers: (e) => ({ "retry-after": String(e.retryAfterSeconds) }),
    paymentFirst: true,
  },
  not_verified: {
    status: 422,
    code: () => "not_verified",
    fields: (e) => ({ verified: false, tier: "not_verified", url: e.subject.url, name: e.subject.name, failed_criteria: e.reasons, criteria: e.checked }),
  },
  claim_refused: { status: 422, code: (e) => e.code, fields: (e) => e.details },
  conflict: { status: 409, code: (e) => e.code },
};

/** The answer to a domain error; `payment` is given on paid routes only (the gate's state). */
export function toApiError(e: DomainError, payment?: { settled: boolean }): ApiError {
  const answer = ANSWERS[e.kind] as Answer<DomainError>;
  const paid = payment ? paymentFields(answer.status, payment.settled) : {};
  const fields = answer.fields?.(e) ?? {};
  return new ApiError(answer.status, answer.code(e), e.message, answer.paymentFirst ? { ...paid, ...fields } : { ...fields, ...paid }, answer.headers?.(e));
}
