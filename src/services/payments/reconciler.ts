import type { Kysely } from "kysely";
import type { Database, PaymentStatus } from "../../db/schema.js";
import type { ChainReader } from "./chain-outcome.js";

export interface ReconcilerDeps {
  db: Kysely<Database>;
  now: () => Date;
  chain: ChainReader;
  /** Rows younger than this may belong to a request still running; left alone. */
  graceMs: number;
  /** Chain time in seconds (validBefore is compared with it). */
  chainNowSeconds?: () => number;
}

export interface ReconcileResult {
  settled: number;
  released: number;
  failed: number;
  waiting: number;
}

const BATCH = 100;

/**
 * Resolves every payment that is neither final nor young from the chain itself: used on chain is
 * settled (what it bought becomes usable); unused is released, at once for a claim that never
 * asked for settlement, and for one that did only once its authorization can no longer land.
 * Safe with several processes: each move names the state and request it read.
 */
export async function reconcilePayments(deps: ReconcilerDeps): Promise<ReconcileResult> {
  const result: ReconcileResult = { settled: 0, released: 0, failed: 0, waiting: 0 };
  const chainNow = BigInt(Math.floor(deps.chainNowSeconds?.() ?? Date.now() / 1000));
  const rows = await deps.db
    .selectFrom("payments")
    .select(["id", "status", "request_id", "asset", "authorizer", "nonce", "valid_before", "network", "payer"])
    .where("status", "in", ["claimed", "settling"])
    .where("updated_at", "<=", new Date(deps.now().getTime() - deps.graceMs))
    .orderBy("updated_at")
    .limit(BATCH)
    .execute();
  for (const row of rows) {
    if (!row.asset || !row.authorizer || !row.nonce) continue;
    const outcome = await deps.chain.authorizationOutcome(row.asset, row.authorizer, row.nonce);
    const move = async (status: PaymentStatus, set: { tx_hash?: string; settled_at?: Date; error?: string | null }) => {
      const at = deps.now();
      const done = await deps.db
        .updateTable("payments")
        .set({ status, ...set, updated_at: at })
        .where("id", "=", row.id)
        .where("status", "=", row.status)
        .where("request_id", "=", row.request_id)
        .executeTakeFirst();
      return done.numUpdatedRows > 0n;
    };
    const expired = row.valid_before !== null && BigInt(row.valid_before) <= chainNow;
    if (outcome.state === "used") {
      if (await move("settled", { tx_hash: outcome.transaction, settled_at: deps.now(), error: null })) result.settled++;
    } else if (outcome.state === "canceled") {
      if (await move("failed", { error: "the payer canceled the authorization on chain" })) result.failed++;
    } else if (outcome.state === "unused" && (row.status === "claimed" || expired)) {
      if (await move("released", { error: expired ? "reconciled: unused on chain and expired" : "reconciled: never settled, unused on chain" }))
        result.released++;
    } else {
      result.waiting++;
    }
  }
  return result;
}
