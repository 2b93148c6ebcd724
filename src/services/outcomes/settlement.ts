import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { ClaimRefused, Conflict } from "../errors.js";
import { DAY } from "../signals/constants.js";

/** A report names a settlement at most this old. */
export const REPORT_MAX_AGE_MS = 7 * DAY;

export interface IndexedSettlement {
  tx_hash: string;
  log_index: number;
  payer: string;
  amount_atomic: string;
  settled_at: Date;
  reported: boolean;
}

/**
 * The settlements to `payTo` the report names (its transaction, or its authorization nonce), as
 * the chain index holds them, oldest unreported first: one transaction may settle several.
 */
export async function namedSettlements(
  db: Kysely<Database>,
  at: { network: string; payTo: string },
  named: { tx?: string | undefined; nonce?: string | undefined },
): Promise<IndexedSettlement[]> {
  const by = named.tx ? sql`s.tx_hash = ${named.tx.toLowerCase()}` : sql`s.nonce = ${named.nonce!.toLowerCase()}`;
  const { rows } = await sql<IndexedSettlement>`
    select s.tx_hash, s.log_index, s.payer, s.amount_atomic::text as amount_atomic, s.settled_at,
      exists (select 1 from outcome_reports r where r.network = s.network and r.tx_hash = s.tx_hash and r.log_index = s.log_index) as reported
    from chain_settlements s
    where s.network = ${at.network} and s.pay_to = ${at.payTo.toLowerCase()} and ${by}
    order by reported, s.log_index`.execute(db);
  return rows.map((r) => ({ ...r, settled_at: new Date(r.settled_at) }));
}

/**
 * The settlement a report may count for: the payer's own, to the listing's payTo, named by the
 * report, at most 7 days old and not reported before; else the refusal that says which failed.
 */
export async function settlementToReport(
  db: Kysely<Database>,
  at: { network: string; payTo: string },
  r: { tx?: string | undefined; nonce?: string | undefined; payer: string },
  now: Date,
): Promise<IndexedSettlement> {
  const named = await namedSettlements(db, at, r);
  if (named.length === 0)
    throw new ClaimRefused(
      "not_paid",
      "the chain index holds no settlement to this listing's payTo with this transaction or nonce; one minutes old may not be indexed yet: retry in a minute",
    );
  const mine = named.filter((s) => s.payer === r.payer.toLowerCase());
  if (mine.length === 0) throw new ClaimRefused("not_the_payer", "that settlement was paid by another wallet than payer");
  const fresh = mine.filter((s) => now.getTime() - s.settled_at.getTime() <= REPORT_MAX_AGE_MS);
  if (fresh.length === 0) throw new ClaimRefused("settlement_too_old", "the settlement is older than 7 days");
  const open = fresh.find((s) => !s.reported);
  if (!open) throw new Conflict("this settlement was reported already", "already_reported");
  return open;
}
