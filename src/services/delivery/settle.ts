import { sql, type Kysely } from "kysely";
import type { Database, DeliveryOutcome } from "../../db/schema.js";
import type { Logger } from "../../lib/log.js";
import { updateVerdicts } from "../evidence/index.js";
import type { ChainReader } from "../payments/chain-outcome.js";
import type { Judgment } from "./judge.js";
import { refreshDeliverySummaries } from "./summary.js";

/** What the runner stored once the answer was read: the judgment if the chain shows the payment. */
type Stored = { judgment_if_settled?: Judgment; answered?: boolean };

/**
 * Completes an open check from the chain (decision 0051): the authorization used means the money
 * moved (spent = the signed amount, outcome = the judgment of what came, interrupted when nothing
 * was read); unused once its validBefore passed means nothing moved (not_settled when the endpoint
 * answered or failed, interrupted when our side stopped). Anything else stays open, held against
 * the budget. Returns whether the check is done.
 */
export async function settleCheck(deps: { db: Kysely<Database>; chain: ChainReader; log: Logger }, id: string, now: Date): Promise<boolean> {
  const { db } = deps;
  const row = await db.selectFrom("delivery_checks").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row || row.state === "done") return true;
  const stored = row.evidence as Stored;
  if (!row.auth_nonce || !row.payer || !row.asset)
    return finish(deps, row.listing_id, id, { judgment: { outcome: "interrupted", reason: "not_signed" }, spent: "0", tx: null }, now);
  const chain = await deps.chain.authorizationOutcome(row.asset, row.payer, row.auth_nonce).catch((err: unknown) => {
    deps.log.warn({ err, check: id }, "canary: the chain could not be read; the check stays open");
    return { state: "unknown" as const };
  });
  if (chain.state === "used") {
    const judgment = stored.judgment_if_settled ?? { outcome: "interrupted" as const, reason: "not_read" };
    return finish(deps, row.listing_id, id, { judgment, spent: row.reserved_atomic, tx: chain.transaction, chain: "used" }, now);
  }
  const expired = row.valid_before !== null && row.valid_before.getTime() <= now.getTime();
  if ((chain.state === "unused" || chain.state === "canceled") && expired) {
    const outcome: DeliveryOutcome = stored.answered ? "not_settled" : "interrupted";
    const judgment = { outcome, reason: outcome === "not_settled" ? "not_settled" : "not_read" };
    return finish(deps, row.listing_id, id, { judgment, spent: "0", tx: null, chain: chain.state }, now);
  }
  return false;
}

type Final = { judgment: Judgment; spent: string; tx: string | null; chain?: string };

async function finish(deps: { db: Kysely<Database>; log: Logger }, listingId: number | null, id: string, f: Final, now: Date): Promise<true> {
  await sql`
    update delivery_checks set state = 'done', outcome = ${f.judgment.outcome}, reason = ${f.judgment.reason}, spent_atomic = ${f.spent}::numeric,
      tx = ${f.tx}, finished_at = ${now.toISOString()}::timestamptz,
      evidence = (evidence - 'judgment_if_settled' - 'answered')
                 || jsonb_build_object('judgment', ${JSON.stringify(f.judgment)}::jsonb,
                      'settlement', coalesce(evidence -> 'settlement', '{}'::jsonb) || jsonb_build_object('tx', ${f.tx}::text, 'chain', ${f.chain ?? null}::text))
    where id = ${id} and state <> 'done'`.execute(deps.db);
  if (listingId !== null) await refreshListing(deps.db, listingId, now);
  deps.log.info({ check: id, outcome: f.judgment.outcome, reason: f.judgment.reason, spentAtomic: f.spent, tx: f.tx }, "canary: check done");
  return true;
}

/** The listing's summary and stored verdict after a check ended, at once: every product reads them. */
export async function refreshListing(db: Kysely<Database>, listingId: number, now: Date): Promise<void> {
  await refreshDeliverySummaries(db, [listingId], now);
  await updateVerdicts({ db }, [listingId], now);
}
