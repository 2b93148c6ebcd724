import { sql } from "kysely";
import type { DbHandle } from "../../db/client.js";
import { createCreditSpends, settledPayment, type SpentCall } from "../../db/read-models/credit-spends.js";
import type { Clock } from "../../lib/clock.js";
import { atomicToUsdc } from "@x402-lookout/contracts/usdc";
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

export interface MintInput {
  paymentId: string;
  payer: string | null;
  network: string;
  amountAtomic: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface CreditsDeps {
  db: Pick<DbHandle, "db" | "dialect" | "prepared">;
  clock: Clock;
}

/**
 * Prepaid bundles (/spec#credits, docs/payments.md "Credits"). A bundle is bound to the payment that bought it and is usable
 * only once that payment settled, so a failed settlement can never leave a working credit behind.
 */
export function createCreditsService({ db: handle, clock }: CreditsDeps) {
  const { db } = handle;
  const spendOne = createCreditSpends(handle, () => clock.now());

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
