/**
 * Every way a call to x402 Lookout can fail, as one error family. Each error says whether a
 * payment was sent and whether it was settled, so a caller never retries a settled call blindly:
 * `retryable` is true only when the same call can succeed later and no money can have moved.
 */
export interface LookoutErrorInit {
  routeId: string;
  code: string;
  /** The HTTP status, or null when no answer arrived (timeout, network, refused payment). */
  status: number | null;
  /** The JSON error body as the service sent it (`{ error, message, request_id, ... }`). */
  body?: Record<string, unknown>;
  /** Whether this call sent a signed payment (PAYMENT-SIGNATURE). */
  paymentSent: boolean;
  /** true or false when known; null when a payment was sent and its fate is unknown. */
  paymentSettled: boolean | null;
  cause?: unknown;
}

export class LookoutError extends Error {
  readonly routeId: string;
  readonly code: string;
  readonly status: number | null;
  readonly body: Record<string, unknown> | undefined;
  readonly paymentSent: boolean;
  readonly paymentSettled: boolean | null;

  constructor(message: string, init: LookoutErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.routeId = init.routeId;
    this.code = init.code;
    this.status = init.status;
    this.body = init.body;
    this.paymentSent = init.paymentSent;
    this.paymentSettled = init.paymentSettled;
  }

  /** The service's request id, for support and logs. */
  get requestId(): string | undefined {
    return typeof this.body?.request_id === "string" ? this.body.request_id : undefined;
  }

  /** Whether repeating the same call may succeed and cannot pay twice for one answer. */
  get retryable(): boolean {
    return this.transient && (!this.paymentSent || this.paymentSettled === false);
  }

  protected get transient(): boolean {
    return false;
  }
}

/** 400: the input is malformed; nothing was charged. */
export class BadRequestError extends LookoutError {}

/** 402: payment is required and was not made or was refused (see `body.error` and `accepts`). */
export class PaymentRequiredError extends LookoutError {}

/** 404: no such credit bundle, watch or certificate, or no healthy alternative. */
export class NotFoundError extends LookoutError {}

/** 409: this payment already minted a credit bundle; `credit` is the bundle it bought. */
export class CreditAlreadyMintedError extends LookoutError {
  get credit(): Record<string, unknown> | null {
    return (this.body?.credit as Record<string, unknown> | null | undefined) ?? null;
  }
}

/**
 * 409 on any other paid route: the payment's authorization was already used (a retry without the
 * original payment-identifier gets no answer: everything else in a payment is public on chain),
 * is being answered by another request, or its payment-identifier named another payment.
 */
export class PaymentConflictError extends LookoutError {}

/** 413: a batch above 50 URLs. */
export class PayloadTooLargeError extends LookoutError {}

/** 415: the body was not JSON (the client always sends JSON, so this means a proxy changed it). */
export class UnsupportedMediaTypeError extends LookoutError {}

/** 422: the endpoint does not meet the verification criteria; nothing was charged. */
export class NotVerifiedError extends LookoutError {
  get failedCriteria(): Array<Record<string, unknown>> {
    return (this.body?.failed_criteria as Array<Record<string, unknown>> | undefined) ?? [];
  }
}

/** An answer that says to come back later (429, 503), with when. */
export abstract class RetryLaterError extends LookoutError {
  constructor(
    message: string,
    init: LookoutErrorInit,
    /** Seconds to wait, from retry-after or the body's retry_after_seconds. */
    readonly retryAfterSeconds: number | null,
  ) {
    super(message, init);
  }
  protected override get transient(): boolean {
    return true;
  }
}

/** 429: the free trial's daily limit; `retryAfterSeconds` says when it resets. */
export class RateLimitedError extends RetryLaterError {}

/** 503: a time-out inside the service; the body says whether the payment was settled. */
export class ServiceUnavailableError extends RetryLaterError {}

/**
 * 202 settlement_pending: the payment went to settlement and its confirmation was not seen in
 * time. The same `paymentSignature` (it carries the payment-identifier) collects the answer
 * later; an authorization that never lands is released and costs nothing.
 */
export class SettlementPendingError extends RetryLaterError {
  get transaction(): string | null {
    return typeof this.body?.transaction === "string" ? this.body.transaction : null;
  }
  get paymentSignature(): string | null {
    return typeof this.body?.payment_signature === "string" ? this.body.payment_signature : null;
  }
}

/** Any other status (500 and statuses no route documents). */
export class UnexpectedStatusError extends LookoutError {}

/** No answer within the client's time-out. A payment sent before it may or may not settle. */
export class LookoutTimeoutError extends LookoutError {
  protected override get transient(): boolean {
    return true;
  }
}

/** The service could not be reached (refused, reset, DNS, a redirect the client refuses). */
export class LookoutNetworkError extends LookoutError {
  protected override get transient(): boolean {
    return true;
  }
}

/**
 * The client refused to pay or could not sign: the price is above the caller's spend cap, the
 * challenge asks more than the route's documented price, or no signer is configured.
 */
export class PaymentError extends LookoutError {}

/**
 * A verdict whose signature is missing, does not verify against the service's JWKS, has expired,
 * or signs other values than the answer states (docs/verdicts.md). Do not act on that answer.
 */
export class VerdictSignatureError extends LookoutError {}

/**
 * A verdict whose signature holds but whose `exp` has passed at the client's clock (beyond its
 * skew tolerance; code stale_verdict): a miss, never a pass. A guard asks again once, then its
 * failMode decides (decision 0030).
 */
export class VerdictExpiredError extends VerdictSignatureError {}

/**
 * The service's keys could not be had to check a verdict (code keys_unavailable): the JWKS did not
 * answer, or a new key id arrived inside the refetch pause. An outage to a guard's failMode.
 */
export class VerdictKeysUnavailableError extends VerdictSignatureError {}

/** The answer does not match the route's response schema (only with validateResponses). */
export class ResponseShapeError extends LookoutError {}
