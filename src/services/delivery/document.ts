import type { Kysely } from "kysely";
import { atomicToUsdc } from "@x402-lookout/contracts/usdc";
import { DELIVERY_CHECK_RETENTION_DAYS, type DeliveryCheck } from "@x402-lookout/contracts/delivery/delivery-check";
import type { Database } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import { NotFound } from "../errors.js";
import type { JwsSigner } from "../verdict-signing/index.js";
import { DAY } from "../signals/constants.js";

export interface DeliveryDocumentsDeps {
  db: Kysely<Database>;
  clock: Clock;
  /** Signs with the verdict keys under the document's own typ (DELIVERY_CHECK_JWS). */
  sign: JwsSigner;
  jwksUrl: string;
}

/**
 * A paid check as its signed evidence document (GET /api/v1/delivery-checks/{id}, decision 0051):
 * the fields stated, and a JWS over exactly them, so a dispute can rest on it offline.
 */
export function createDeliveryDocuments({ db, clock, sign, jwksUrl }: DeliveryDocumentsDeps) {
  return {
    async get(id: string): Promise<DeliveryCheck> {
      const since = new Date(clock.now().getTime() - DELIVERY_CHECK_RETENTION_DAYS * DAY);
      const row = await db.selectFrom("delivery_checks").selectAll().where("id", "=", id).where("started_at", ">", since).executeTakeFirst();
      if (!row) throw new NotFound(`no delivery check ${id} in the last ${DELIVERY_CHECK_RETENTION_DAYS} days`, "delivery_check_not_found");
      const fields = {
        id: row.id,
        url: row.url,
        method: row.method,
        state: row.state,
        outcome: row.outcome,
        reason: row.reason,
        paid_usdc: atomicToUsdc(row.spent_atomic),
        tx: row.tx,
        payer: row.payer,
        pay_to: row.pay_to,
        network: row.network,
        started_at: row.started_at.toISOString(),
        finished_at: row.finished_at?.toISOString() ?? null,
        evidence: publicEvidence(row.evidence),
      };
      return { ...fields, document: await sign(fields), jwks_url: jwksUrl };
    },
  };
}

// What the runner keeps for itself until the chain decides is not evidence: the final judgment is.
function publicEvidence(evidence: Record<string, unknown>): Record<string, unknown> {
  const { judgment_if_settled: _pending, answered: _answered, ...rest } = evidence;
  return rest;
}
