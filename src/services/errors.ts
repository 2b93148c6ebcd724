/**
 * What went wrong, in the terms of the business: services throw these and know nothing of HTTP.
 * The edge (src/http/errors.ts) maps each `kind` to a status, error code and headers.
 */
export type DomainErrorKind = "not_found" | "invalid_input" | "quota_exceeded" | "unavailable" | "not_verified" | "claim_refused" | "conflict";

export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;
}

/** Nothing matched; `code` says what, in the client's words (`no_alternatives`). */
export class NotFound extends DomainError {
  readonly kind = "not_found";
  constructor(
    message: string,
    readonly code = "not_found",
  ) {
    super(message);
    this.name = "NotFound";
  }
}

/** The input cannot be served as given; `field` names the input at fault. */
export class InvalidInput extends DomainError {
  readonly kind = "invalid_input";
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = "InvalidInput";
  }
}

/** A quota for `scope` is used up until `resetAt`. */
export class QuotaExceeded extends DomainError {
  readonly kind = "quota_exceeded";
  /** Whole seconds from `now` to the reset, at least 1. */
  readonly retryAfterSeconds: number;
  constructor(
    readonly scope: string,
    readonly limit: number,
    readonly resetAt: Date,
    now: Date,
    message: string,
  ) {
    super(message);
    this.name = "QuotaExceeded";
    this.retryAfterSeconds = Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000));
  }
}

/** A dependency cannot answer now; the same request may succeed after `retryAfterSeconds`. */
export class Unavailable extends DomainError {
  readonly kind = "unavailable";
  constructor(
    message: string,
    readonly retryAfterSeconds = 30,
  ) {
    super(message);
    this.name = "Unavailable";
  }
}

/** A subject failed verification; `reasons` are the checks it failed, `checked` all of them. */
export class NotVerified<R = unknown> extends DomainError {
  readonly kind = "not_verified";
  constructor(
    readonly subject: { url: string; name: string | null },
    readonly reasons: readonly R[],
    readonly checked: readonly R[],
    message: string,
  ) {
    super(message);
    this.name = "NotVerified";
  }
}

/**
 * A claim the request makes is not accepted: control of an address it did not prove, a name
 * that imitates someone else's. `code` says which; `details` what was checked, for the caller.
 */
export class ClaimRefused extends DomainError {
  readonly kind = "claim_refused";
  constructor(
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "ClaimRefused";
  }
}

/** The request contradicts the current state; `code` says how. */
export class Conflict extends DomainError {
  readonly kind = "conflict";
  constructor(
    message: string,
    readonly code = "conflict",
  ) {
    super(message);
    this.name = "Conflict";
  }
}

export type AnyDomainError = NotFound | InvalidInput | QuotaExceeded | Unavailable | NotVerified | ClaimRefused | Conflict;
