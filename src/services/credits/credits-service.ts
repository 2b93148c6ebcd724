import { sql, type Kysely } from "kysely";
import { hotPathCommitCte } from "../../db/async-commit.js";
import type { DbDialect } from "../../db/client.js";
import { coalesce } from "../../db/coalesce.js";
import { executePrepared } from "../../db/prepared.js";
import type { Database } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import { atomicToUsdc } from "../../lib/usdc.js";
import { CREDIT_BUNDLE } from "./bundle.js";

export interface Credit {
  creditId: string;
  balance: number;
  initialBalance: number;
  paidAmount: string;
  payerAddress: string | null;
  createdAt: Date;
  expiresAt: Date;
  paymentTx: string | null;
  paymentNetwork: string | null;
}

export interface SpentCall {
  balance: number;
  expiresAt: Date;
  payerAddress: string | null;
  paymentNetwork: string | null;
}

export interface MintInput {
  paymentId: string;
  payer: string | null;
  network: string;
  amountAtomic: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Prepaid bundles (spec 2.9, 3.1). A bundle is bound to the payment that bought it and is usable
 * only once that payment settled, so a failed settlement can never leave a working credit behind.
 */
export function createCreditsService(db: Kysely<Database>, clock: Clock, dialect: DbDialect) {
  const settledPayment = (creditAlias: "credits" | "c") =>
    sql<boolean>`exists (select 1 from payments p where p.id = ${sql.ref(`${creditAlias}.payment_id`)} and p.status = 'settled')`;

  /**
   * The spends of one event-loop turn, in one statement committed without waiting for the WAL
   * flush (on PostgreSQL; embedded PGlite waits, see hotPathCommitCte). Each bundle's row is
   * locked once (in id order, so two processes' batches cannot deadlock) and gives as many calls
   * as its balance allows, as if the calls had come one after another: the first caller sees the
   * highest remaining balance.
   */
  const commitCte = hotPathCommitCte(dialect);
  const spendOne = coalesce(async (ids: readonly string[]): Promise<Array<SpentCall | undefined>> => {
    const now = clock.now();
    const rows = await executePrepared(db, "credit-spend", sql<SpentCall & { id: string; spent: number }>`
      with ${commitCte},
      wanted as (select id, count(*)::int as n from unnest(${[...ids]}::uuid[]) as t(id) group by id),
      locked as (
        select c.id, least(c.balance, w.n) as spent
        from credits c join wanted w on w.id = c.id
        where c.balance > 0 and c.expires_at > ${now} and ${settledPayment("c")}
        order by c.id
        for update of c
      )
      update credits c set balance = c.balance - l.spent, last_used_at = ${now}
      from locked l, async_commit
      where c.id = l.id
      returning c.id::text as id, l.spent as spent, c.balance as balance, c.expires_at as "expiresAt",
        c.payer_address as "payerAddress", c.payment_network as "paymentNetwork"`.compile(db));
    const left = new Map(rows.map((r) => [r.id, { row: r, remaining: r.spent }]));
    return ids.map((id) => {
      const bundle = left.get(id);
      if (!bundle || bundle.remaining === 0) return undefined;
      bundle.remaining -= 1;
      const { row } = bundle;
      return { balance: row.balance + bundle.remaining, expiresAt: row.expiresAt, payerAddress: row.payerAddress, paymentNetwork: row.paymentNetwork };
    });
  });

  const select = () =>
    db
      .selectFrom("credits")
      .leftJoin("payments", "payments.id", "credits.payment_id")
      .select([
        "credits.id as creditId",
        "credits.balance as balance",
        "credits.initial_balance as initialBalance",
        sql<string>`credits.paid_amount::text`.as("paidAmount"),
        "credits.payer_address as payerAddress",
        "credits.created_at as createdAt",
        "credits.expires_at as expiresAt",
        "payments.tx_hash as paymentTx",
        "credits.payment_network as paymentNetwork",
      ]);

  return {
    async mint(input: MintInput): Promise<Credit> {
      const createdAt = clock.now();
      const expiresAt = new Date(createdAt.getTime() + CREDIT_BUNDLE.validDays * 86_400_000);
      const row = await db
        .insertInto("credits")
        .values({
          balance: CREDIT_BUNDLE.calls,
          initial_balance: CREDIT_BUNDLE.calls,
          paid_amount: atomicToUsdc(input.amountAtomic),
          payer_address: input.payer,
          payment_network: input.network,
          payment_id: input.paymentId,
          created_at: createdAt,
          expires_at: expiresAt,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return {
        creditId: row.id,
        balance: CREDIT_BUNDLE.calls,
        initialBalance: CREDIT_BUNDLE.calls,
        paidAmount: atomicToUsdc(input.amountAtomic),
        payerAddress: input.payer,
        createdAt,
        expiresAt,
        paymentTx: null,
        paymentNetwork: input.network,
      };
    },

    /** The bundle bought by a payment, once that payment settled. */
    async findByPayment(paymentId: string): Promise<Credit | undefined> {
      return select().where("credits.payment_id", "=", paymentId).where(settledPayment("credits")).executeTakeFirst();
    },

    /** Status for anyone holding the id; malformed and unknown ids both give undefined. */
    async get(creditId: string): Promise<Credit | undefined> {
      if (!UUID.test(creditId)) return undefined;
      return select().where("credits.id", "=", creditId).where(settledPayment("credits")).executeTakeFirst();
    },

    /** Spends one call atomically; undefined when the bundle is unknown, exhausted or expired. */
    async spend(creditId: string): Promise<SpentCall | undefined> {
      return UUID.test(creditId) ? spendOne(creditId.toLowerCase()) : undefined;
    },

    /** Gives back a call whose answer failed. */
    async refund(creditId: string): Promise<void> {
      await db
        .updateTable("credits")
        .set({ balance: sql`least(balance + 1, initial_balance)` })
        .where("id", "=", creditId)
        .execute();
    },
  };
}

export type CreditsService = ReturnType<typeof createCreditsService>;
