import { createHash } from "node:crypto";
import type { PaymentPayload } from "@x402/core/types";

/**
 * One key per signed authorization, so a payment can pay for one answer only. For EIP-3009 the
 * (network, payer, nonce) triple is what the token itself refuses to reuse; anything else is
 * keyed by a hash of its signed payload.
 */
export function authorizationKey(payload: PaymentPayload): string {
  const auth = (payload.payload as { authorization?: { from?: unknown; nonce?: unknown } }).authorization;
  const network = payload.accepted?.network ?? "unknown";
  if (auth && typeof auth.from === "string" && typeof auth.nonce === "string") {
    return `${network}:${auth.from.toLowerCase()}:${auth.nonce.toLowerCase()}`;
  }
  return `${network}:sha256:${createHash("sha256").update(JSON.stringify(payload.payload)).digest("hex")}`;
}
