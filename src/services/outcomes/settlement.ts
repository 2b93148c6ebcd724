import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

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
