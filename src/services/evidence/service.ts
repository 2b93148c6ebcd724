import type { Kysely } from "kysely";
import type { DbHandle } from "../../db/client.js";
import type { Database } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import { recomputeVerdicts } from "./verdicts.js";

export interface VerdictsDeps {
  db: DbHandle;
  clock: Clock;
}

/** The full verdict pass as the job runtime runs it; `db` is the singleton's transaction when it holds one. */
export function createVerdictsService({ db: handle, clock }: VerdictsDeps) {
  return {
    recompute: (db: Kysely<Database> = handle.db) => recomputeVerdicts({ db, generation: handle.generation }, clock.now()),
  };
}

export type VerdictsService = ReturnType<typeof createVerdictsService>;
