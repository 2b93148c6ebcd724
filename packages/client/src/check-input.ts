import type { AnyRouteContract } from "@x402-lookout/contracts";
import { BadRequestError, PayloadTooLargeError, type LookoutError } from "./errors.js";

/**
 * The route's own body schema, checked before anything is sent: a paid route answers any unpaid
 * request with 402, so a body the service would refuse must never get as far as a signature.
 * The error carries the status the service would answer.
 */
export function inputError(contract: AnyRouteContract, init: RequestInit): LookoutError | null {
  if (contract.price === null || !contract.body || typeof init.body !== "string") return null;
  const parsed = contract.body.safeParse(JSON.parse(init.body));
  if (parsed.success) return null;
  const issues: ReadonlyArray<{ code: string; path: PropertyKey[]; message: string; params?: { status?: number } }> = parsed.error.issues;
  const tooLarge = issues.some((i) => i.code === "custom" && i.params?.status === 413);
  const said = issues
    .slice(0, 10)
    .map((i) => (i.path.length ? `${i.path.map(String).join(".")}: ${i.message}` : i.message))
    .join("; ");
  const status = tooLarge ? 413 : 400;
  const errorInit = { routeId: contract.id, code: tooLarge ? "payload_too_large" : "bad_request", status, paymentSent: false, paymentSettled: false };
  const message = `${contract.id}: ${said}; nothing was sent`;
  return tooLarge ? new PayloadTooLargeError(message, errorInit) : new BadRequestError(message, errorInit);
}
