import type { Kysely } from "kysely";
import type { Database, PaymentStatus } from "../../db/schema.js";

export interface PaymentClaim {
  id: string;
  key: string;
}

export interface ClaimInput {
  key: string;
  route: string;
  requestId: string;
  payer: string | null;
  network: string;
  scheme: string;
  asset: string;
  payTo: string;
  amountAtomic: string;
  authorizer: string;
  nonce: string;
  validBefore: string;
  identifierHash: string | null;
}

export interface LedgerRow {
  id: string;
  status: PaymentStatus;
  route: string;
  network: string;
  payer: string | null;
  txHash: string | null;
  identifierHash: string | null;
  sealedAnswer: string | null;
}

/** Statuses from which the same authorization may pay again, for its own payer's retry only: nothing reached the chain. */
export const RECLAIMABLE: readonly PaymentStatus[] = ["failed", "released"];

/**
 * The audit trail of every paid request and the replay guard. States and who moves them:
 * docs/payments.md. An authorization is claimed before the handler runs, so two requests with
 * one signature cannot both be served, across processes.
 */
export interface PaymentLedger {
  byAuthorization(key: string): Promise<LedgerRow | undefined>;
  /** The authorization a payment-identifier was first used with. */
  byIdentifier(identifierHash: string): Promise<{ key: string } | undefined>;
  /** undefined when the authorization is claimed, settling or settled already. */
  claim(input: ClaimInput): Promise<PaymentClaim | undefined>;
  /**
   * Releases the claim `requestId` may have recorded when the claim statement failed without an
   * answer (it may or may not have committed); touches nothing claimed again since.
   */
  releaseUnconfirmed(key: string, requestId: string, reason: string): Promise<void>;
  release(claim: PaymentClaim, reason: string): Promise<void>;
  /**
   * The answer is ready and settlement is about to be asked for; `sealedAnswer` for a retry to
   * collect. False when the claim is no longer this request's (the reconciler released it).
   */
  settling(claim: PaymentClaim, sealedAnswer: string | null): Promise<boolean>;
  /** The settlement's transaction, broadcast but not yet confirmed. */
  pending(claim: PaymentClaim, transaction: string | null, reason: string): Promise<void>;
  failed(claim: PaymentClaim, reason: string): Promise<void>;
  settled(claim: PaymentClaim, s: { transaction: string; network: string; payer: string | null }): Promise<void>;
}

export function createPaymentLedger(db: Kysely<Database>, now: () => Date): PaymentLedger {
  const rowColumns = [
    "id",
    "status",
    "route",
    "network",
    "payer",
    "tx_hash as txHash",
    "identifier_hash as identifierHash",
    "sealed_answer as sealedAnswer",
  ] as const;
  const move = async (
    claim: PaymentClaim,
    status: PaymentStatus,
    set: { error?: string | null; tx_hash?: string | null; sealed_answer?: string | null },
    from: readonly PaymentStatus[],
  ) => {
    const done = await db
      .updateTable("payments")
      .set({ status, ...set, updated_at: now() })
      .where("id", "=", claim.id)
      .where("status", "in", from)
      .executeTakeFirst();
    return done.numUpdatedRows > 0n;
  };
  return {
    byAuthorization: (key) => db.selectFrom("payments").select(rowColumns).where("authorization_key", "=", key).executeTakeFirst(),
    byIdentifier: (hash) => db.selectFrom("payments").select("authorization_key as key").where("identifier_hash", "=", hash).executeTakeFirst(),
    async claim(input) {
      const at = now();
      const fresh = {
        status: "claimed" as const,
        request_id: input.requestId,
        route: input.route,
        payer: input.payer,
        identifier_hash: input.identifierHash,
        sealed_answer: null,
        tx_hash: null,
        error: null,
        created_at: at,
        updated_at: at,
      };
      const row = await db
        .insertInto("payments")
        .values({
          ...fresh,
          authorization_key: input.key,
          network: input.network,
          scheme: input.scheme,
          asset: input.asset,
          pay_to: input.payTo,
          amount_atomic: input.amountAtomic,
          authorizer: input.authorizer.toLowerCase(),
          nonce: input.nonce.toLowerCase(),
          valid_before: input.validBefore,
        })
        // A released or failed authorization is claimed again only by its own payer's retry: the
        // same route and payment-identifier (none stored: never; SQL's NULL = NULL is not true).
        .onConflict((oc) =>
          oc
            .column("authorization_key")
            .doUpdateSet(fresh)
            .where("payments.status", "in", RECLAIMABLE)
            .where("payments.route", "=", input.route)
            .where("payments.identifier_hash", "=", input.identifierHash),
        )
        .returning("id")
        .executeTakeFirst();
      return row ? { id: row.id, key: input.key } : undefined;
    },
    async releaseUnconfirmed(key, requestId, reason) {
      await db
        .updateTable("payments")
        .set({ status: "released", error: reason, updated_at: now() })
        .where("authorization_key", "=", key)
        .where("request_id", "=", requestId)
        .where("status", "=", "claimed")
        .execute();
    },
    release: async (claim, reason) => void (await move(claim, "released", { error: reason }, ["claimed"])),
    settling: (claim, sealed) => move(claim, "settling", { sealed_answer: sealed }, ["claimed"]),
    pending: async (claim, tx, reason) => void (await move(claim, "settling", { tx_hash: tx, error: reason }, ["settling"])),
    failed: async (claim, reason) => void (await move(claim, "failed", { error: reason }, ["settling"])),
    // The chain is the truth: a confirmed settlement wins over whatever the row says.
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
