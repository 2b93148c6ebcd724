import type { PaymentPayload } from "@x402/core/types";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { authorizationKey } from "./authorization-key.js";

export interface PaymentClaim {
  id: string;
  key: string;
}

export interface ClaimInput {
  payload: PaymentPayload;
  route: string;
  requestId: string;
  payer: string | null;
  network: string;
  amountAtomic: string;
}

export interface ExistingPayment {
  id: string;
  status: string;
  route: string;
}

/**
 * The audit trail of every paid request, and the replay guard: an authorization is claimed
 * before the handler runs, so two concurrent requests with one signature cannot both be served.
 * A claim whose answer failed (nothing settled) may be claimed again by a retry.
 */
export interface PaymentLedger {
  /** A settled or in-flight payment for this signed authorization, if any. */
  find(payload: PaymentPayload): Promise<ExistingPayment | undefined>;
  claim(input: ClaimInput): Promise<PaymentClaim | undefined>;
  release(claim: PaymentClaim, reason: string): Promise<void>;
  /**
   * Releases the claim `requestId` may have recorded for this authorization when the claim
   * statement failed without an answer (the database dropped mid-statement: it may or may not
   * have committed). Touches nothing when that claim was never recorded or was claimed again since.
   */
  releaseUnconfirmed(payload: PaymentPayload, requestId: string, reason: string): Promise<void>;
  settleFailed(claim: PaymentClaim, reason: string): Promise<void>;
  settled(claim: PaymentClaim, s: { transaction: string; network: string; payer: string | null }): Promise<void>;
}

const RECLAIMABLE = ["settlement_skipped", "settle_failed", "verify_failed"] as const;

export function createPaymentLedger(db: Kysely<Database>, now: () => Date): PaymentLedger {
  const setStatus = async (claim: PaymentClaim, status: "settlement_skipped" | "settle_failed", error: string) => {
    await db.updateTable("payments").set({ status, error, updated_at: now() }).where("id", "=", claim.id).execute();
  };
  return {
    async find(payload) {
      return db
        .selectFrom("payments")
        .select(["id", "status", "route"])
        .where("authorization_key", "=", authorizationKey(payload))
        .where("status", "in", ["verified", "settled"])
        .executeTakeFirst();
    },
    async claim(input) {
      const key = authorizationKey(input.payload);
      const at = now();
      const row = await db
        .insertInto("payments")
        .values({
          authorization_key: key,
          request_id: input.requestId,
          route: input.route,
          network: input.network,
          scheme: input.payload.accepted.scheme,
          asset: input.payload.accepted.asset,
          pay_to: input.payload.accepted.payTo,
          payer: input.payer,
          amount_atomic: input.amountAtomic,
          status: "verified",
          created_at: at,
          updated_at: at,
        })
        .onConflict((oc) =>
          oc
            .column("authorization_key")
            .doUpdateSet({ status: "verified", request_id: input.requestId, route: input.route, error: null, updated_at: at })
            .where("payments.status", "in", RECLAIMABLE),
        )
        .returning("id")
        .executeTakeFirst();
      return row ? { id: row.id, key } : undefined;
    },
    release: (claim, reason) => setStatus(claim, "settlement_skipped", reason),
    async releaseUnconfirmed(payload, requestId, reason) {
      await db
        .updateTable("payments")
        .set({ status: "settlement_skipped", error: reason, updated_at: now() })
        .where("authorization_key", "=", authorizationKey(payload))
        .where("request_id", "=", requestId)
        .where("status", "=", "verified")
        .execute();
    },
    settleFailed: (claim, reason) => setStatus(claim, "settle_failed", reason),
    async settled(claim, s) {
      const at = now();
      await db
        .updateTable("payments")
        .set({ status: "settled", tx_hash: s.transaction, network: s.network, payer: s.payer, settled_at: at, updated_at: at, error: null })
        .where("id", "=", claim.id)
        .execute();
    },
  };
}
