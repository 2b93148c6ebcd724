import { ApiError } from "../errors.js";

/** The 409s of a payment the ledger already holds (docs/payments.md, "Retries"). */
export const paymentInProgress = () =>
  new ApiError(
    409,
    "payment_in_progress",
    "this payment is being answered by another request; retry shortly",
    { retry_after_seconds: 2 },
    { "retry-after": "2" },
  );

export const identifierConflict = () => new ApiError(409, "payment_identifier_conflict", "this payment-identifier was already used with a different payment");

export const paymentAlreadyUsed = (message: string) => new ApiError(409, "payment_already_used", message);
