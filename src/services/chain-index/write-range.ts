import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { ReadRange } from "./plan.js";

export interface SettlementRow {
  tx_hash: string;
  log_index: number;
  block_number: string;
  block_hash: string;
  settled_at: string;
  pay_to: string;
  payer: string;
  amount_atomic: string;
  nonce: string;
  sender: string;
}

/**
 * Stores what one range read, in one transaction: the range's rows replace what was stored for it
 * (a reorg's vanished settlements go), and the payTos' cursor moves to its end. Only payTos still at
 * the cursor the plan read from are written: another indexer that moved them first wins, so two
 * indexers never count twice or move a cursor back. Returns the settlements stored.
 */
export async function writeRange(db: Kysely<Database>, network: string, range: ReadRange, rows: readonly SettlementRow[]): Promise<number> {
  return db.transaction().execute(async (tx) => {
    const { rows: owned } = await sql<{ pay_to: string }>`
      update chain_payees set synced_to = ${range.to.toString()}::bigint
      where network = ${network} and pay_to = any(${range.payTos}::text[]) and synced_to = ${range.syncedTo.toString()}::bigint
      returning pay_to`.execute(tx);
    if (owned.length === 0) return 0;
    const payTos = owned.map((o) => o.pay_to);
    await sql`delete from chain_settlements where network = ${network} and pay_to = any(${payTos}::text[])
      and block_number between ${range.from.toString()}::bigint and ${range.to.toString()}::bigint`.execute(tx);
    const mine = new Set(payTos);
    const kept = rows.filter((r) => mine.has(r.pay_to));
    if (kept.length === 0) return 0;
    await sql`
      insert into chain_settlements (network, tx_hash, log_index, block_number, block_hash, settled_at, pay_to, payer, amount_atomic, nonce, sender)
      select ${network}, x.tx_hash, x.log_index, x.block_number::bigint, x.block_hash, x.settled_at::timestamptz, x.pay_to, x.payer, x.amount_atomic::numeric, x.nonce, x.sender
      from jsonb_to_recordset(${JSON.stringify(kept)}::jsonb) as x(tx_hash text, log_index int, block_number text, block_hash text, settled_at text, pay_to text, payer text, amount_atomic text, nonce text, sender text)
      on conflict do nothing`.execute(tx);
    return kept.length;
  });
}
