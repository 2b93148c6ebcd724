import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { PayeeGroup } from "./plan.js";

/**
 * Adds the payTos the catalog names on `network` that the indexer does not know yet; returns how
 * many. They start unread (from_block null) until startBackfills gives them their first block.
 */
export async function addNewPayees(db: Kysely<Database>, network: string, now: Date): Promise<number> {
  const { numAffectedRows } = await sql`
    insert into chain_payees (network, pay_to, added_at)
    select distinct ${network}, lower(pay_to), ${now.toISOString()}::timestamptz
    from listings where network = ${network} and pay_to ~* '^0x[0-9a-f]{40}$'
    on conflict do nothing`.execute(db);
  return Number(numAffectedRows ?? 0);
}

/** Unread payTos start at `fromBlock` (30 days back): synced to the block before it. */
export async function startBackfills(db: Kysely<Database>, network: string, fromBlock: bigint): Promise<void> {
  await sql`update chain_payees set from_block = ${fromBlock.toString()}::bigint, synced_to = ${(fromBlock - 1n).toString()}::bigint
    where network = ${network} and from_block is null`.execute(db);
}

export async function hasUnstarted(db: Kysely<Database>, network: string): Promise<boolean> {
  const row = await db.selectFrom("chain_payees").select("pay_to").where("network", "=", network).where("from_block", "is", null).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** The payTos by the block they are read to. */
export async function payeeGroups(db: Kysely<Database>, network: string): Promise<PayeeGroup[]> {
  const { rows } = await sql<{ synced_to: string; from_block: string; pay_tos: string[] }>`
    select synced_to::text, min(from_block)::text as from_block, array_agg(pay_to order by pay_to) as pay_tos
    from chain_payees where network = ${network} and from_block is not null group by synced_to`.execute(db);
  return rows.map((r) => ({ syncedTo: BigInt(r.synced_to), fromBlock: BigInt(r.from_block), payTos: r.pay_tos }));
}
