import type { DbHandle } from "../db/client.js";
import type { Clock } from "../lib/clock.js";
import { createCreditsService } from "./credits/credits-service.js";
import { createPaymentLedger } from "./payments/ledger.js";

/** Every business service, built once from the context's database and clock. */
export function createServices(db: DbHandle, clock: Clock) {
  return {
    credits: createCreditsService(db.db, clock),
    payments: createPaymentLedger(db.db, () => clock.now()),
  };
}

export type Services = ReturnType<typeof createServices>;
