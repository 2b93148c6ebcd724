import { sql } from "kysely";
import { hotPathCommitCte } from "../async-commit.js";
import type { DbHandle } from "../client.js";
import { coalesce } from "../coalesce.js";

/** What one spent call leaves: the balance after it, and the bundle's fields the answer names. */
export interface SpentCall {
  balance: number;
  expiresAt: Date;
  payerAddress: string | null;
  paymentNetwork: string | null;
}

/** Spends one call of a settled, unexpired bundle (a lower-case uuid); undefined when it cannot pay. */
export type CreditSpends = (creditId: string) => Promise<SpentCall | undefined>;

/** `credits.payment_id`'s payment has settled: a bundle is usable only then. */
export const settledPayment = (creditAlias: "credits" | "c") =>
  sql<boolean>`exists (select 1 from payments p where p.id = ${sql.ref(`${creditAlias}.payment_id`)} and p.status = 'settled')`;

/**
 * The spends of one event-loop turn, in one prepared statement committed without waiting for the
 * WAL flush (on PostgreSQL; embedded PGlite waits, see hotPathCommitCte). Each bundle's row is
 * locked once (in id order, so two processes' batches cannot deadlock) and gives as many calls
 * as its balance allows, as if the calls had come one after another: the first caller sees the
 * highest remaining balance.
 */
export function createCreditSpends(handle: Pick<DbHandle, "db" | "dialect" | "prepared">, now: () => Date): CreditSpends {
  const { db } = handle;
  const commitCte = hotPathCommitCte(handle.dialect);
  return coalesce(async (ids: readonly string[]): Promise<Array<SpentCall | undefined>> => {
    const at = now();
    const rows = await handle.prepared.execute(
      "credit-spend",
      sql<SpentCall & { id: string; spent: number }>`
      with ${commitCte},
      wanted as (select id, count(*)::int as n from unnest(${[...ids]}::uuid[]) as t(id) group by id),
      locked as (
        select c.id, least(c.balance, w.n) as spent
        from credits c join wanted w on w.id = c.id
        where c.balance > 0 and c.expires_at > ${at} and ${settledPayment("c")}
        order by c.id
        for update of c
      )
      update credits c set balance = c.balance - l.spent, last_used_at = ${at}
      from locked l, async_commit
      where c.id = l.id
      returning c.id::text as id, l.spent as spent, c.balance as balance, c.expires_at as "expiresAt",
        c.payer_address as "payerAddress", c.payment_network as "paymentNetwork"`.compile(db),
    );
    const left = new Map(rows.map((r) => [r.id, { row: r, remaining: r.spent }]));
    return ids.map((id) => {
      const bundle = left.get(id);
      if (!bundle || bundle.remaining === 0) return undefined;
      bundle.remaining -= 1;
      const { row } = bundle;
      return { balance: row.balance + bundle.remaining, expiresAt: row.expiresAt, payerAddress: row.payerAddress, paymentNetwork: row.paymentNetwork };
    });
  });
}
