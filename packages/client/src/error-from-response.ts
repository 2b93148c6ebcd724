import {
  BadRequestError,
  CreditAlreadyMintedError,
  NotFoundError,
  NotVerifiedError,
  PayloadTooLargeError,
  PaymentConflictError,
  PaymentRequiredError,
  RateLimitedError,
  ServiceUnavailableError,
  SettlementPendingError,
  UnexpectedStatusError,
  UnsupportedMediaTypeError,
  type LookoutError,
  type LookoutErrorInit,
} from "./errors.js";

const BY_STATUS: Record<number, new (message: string, init: LookoutErrorInit) => LookoutError> = {
  400: BadRequestError,
  402: PaymentRequiredError,
  404: NotFoundError,
  409: CreditAlreadyMintedError,
  413: PayloadTooLargeError,
  415: UnsupportedMediaTypeError,
  422: NotVerifiedError,
};

/** The typed error for a non-2xx answer; reads the body. */
export async function errorFromResponse(res: Response, routeId: string, paymentSent: boolean, hint?: string): Promise<LookoutError> {
  const body = await readBody(res);
  const init: LookoutErrorInit = {
    routeId,
    code: typeof body.error === "string" && res.status !== 402 ? body.error : statusCode(res.status),
    status: res.status,
    body,
    paymentSent,
    paymentSettled: settled(res, body, paymentSent),
  };
  const said = typeof body.message === "string" ? body.message : typeof body.error === "string" ? body.error : res.statusText;
  const message = `${routeId} answered ${res.status}: ${said}${hint ? `; ${hint}` : ""}`;
  if (res.status === 429) return new RateLimitedError(message, init, retryAfter(res, body));
  if (res.status === 503) return new ServiceUnavailableError(message, init, retryAfter(res, body));
  if (res.status === 202) return new SettlementPendingError(message, { ...init, paymentSettled: null }, retryAfter(res, body));
  const ErrorClass = res.status === 409 && body.error !== "credit_already_minted" ? PaymentConflictError : (BY_STATUS[res.status] ?? UnexpectedStatusError);
  return new ErrorClass(message, init);
}

const statusCode = (status: number) => (status === 402 ? "payment_required" : `http_${status}`);

async function readBody(res: Response): Promise<Record<string, unknown>> {
  const text = await res.text().catch(() => "");
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // not JSON: a proxy's page or an empty body
  }
  return { error: statusCode(res.status), message: text.slice(0, 500) || res.statusText };
}

/**
 * The service says on every failed paid answer whether it settled (payment_settled); a 402 is
 * never settled. Without either, a payment that was sent has an unknown fate.
 */
function settled(res: Response, body: Record<string, unknown>, paymentSent: boolean): boolean | null {
  if (typeof body.payment_settled === "boolean") return body.payment_settled;
  if (res.headers.has("payment-response")) return true;
  if (!paymentSent || res.status === 402) return false;
  return null;
}

function retryAfter(res: Response, body: Record<string, unknown>): number | null {
  const header = Number(res.headers.get("retry-after"));
  if (res.headers.has("retry-after") && Number.isFinite(header)) return header;
  return typeof body.retry_after_seconds === "number" ? body.retry_after_seconds : null;
}
