import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import type { ChainReader } from "./chain-outcome.js";
import { createPaymentLedger } from "./ledger.js";
import { reconcilePayments } from "./reconciler.js";

/** The payment ledger the gate writes, and the reconciler that resolves its unfinished rows from the chain. */
export function createPaymentsService(db: Kysely<Database>, clock: Clock) {
  const now = () => clock.now();
  return {
    ...createPaymentLedger(db, now),
    /** `graceMs`: rows younger than this may belong to a request still running and are left alone. */
    reconcile: (chain: ChainReader, graceMs: number) => reconcilePayments({ db, now, chain, graceMs }),
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
