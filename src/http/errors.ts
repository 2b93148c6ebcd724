/**
 * One error shape for every failure the API answers: `{ error, message, request_id, ...extra }`.
 * Services throw ApiError (or a subclass); the app's onError turns anything else into a 500
 * without leaking internals.
 */
export type ErrorStatus = 400 | 402 | 404 | 409 | 413 | 415 | 422 | 429 | 500 | 503;

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

export const badRequest = (message: string, extra?: Record<string, unknown>) =>
  new ApiError(400, "bad_request", message, extra);

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
