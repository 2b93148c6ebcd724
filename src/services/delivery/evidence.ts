import type { DeliveryOutcome } from "../../db/schema.js";

/** The first bytes of an answer kept as evidence (base64): enough to show what came, never a workload. */
export const BODY_PREFIX_BYTES = 2048;

/**
 * What a paid check keeps for a dispute (delivery_checks.evidence, 30 days): the 402 it paid, the
 * request it sent, the answer (status, headers, size, hash, first bytes), the timings and the
 * settlement as the receipt and the chain show it. GET /api/v1/delivery-checks/{id} serves it signed.
 */
export interface DeliveryEvidence {
  challenge: {
    status: number;
    /** The 402's payment requirements as read (v2 PAYMENT-REQUIRED header, or a v1 body). */
    payment_required: unknown;
    /** The one requirement signed, and the digest the verdict it was checked by is bound to. */
    requirement: unknown;
    requirement_digest: string | null;
  } | null;
  request: { method: string; url: string; headers: Record<string, string>; body: string | null; input: "declared" | "variant" | "none" };
  answer: {
    status: number;
    headers: Record<string, string>;
    content_type: string | null;
    size: number;
    sha256: string;
    first_bytes_base64: string;
    truncated: boolean;
  } | null;
  timings: { challenge_ms: number | null; paid_request_ms: number | null; total_ms: number };
  settlement: {
    /** The PAYMENT-RESPONSE header, decoded; null when the answer carried none. */
    receipt: unknown;
    tx: string | null;
    /** What the token says of the authorization signed: used (with its transaction), unused, canceled, unknown. */
    chain: "used" | "unused" | "canceled" | "unknown" | null;
    amount_atomic: string | null;
  };
  judgment: { outcome: DeliveryOutcome; reason: string | null; schema_errors?: string[] };
}
