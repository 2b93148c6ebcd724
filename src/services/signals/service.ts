import type { Kysely } from "kysely";
import type { DbHandle } from "../../db/client.js";
import type { Database } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import { recomputeVerdicts } from "./recompute-verdicts.js";

/** Verdicts as the job runtime recomputes them; `db` is the singleton's transaction when it holds one. */
export function createSignalsService(handle: DbHandle, clock: Clock) {
  return {
    recompute: (db: Kysely<Database> = handle.db) => recomputeVerdicts({ db, generation: handle.generation }, clock.now()),
  };
}

export type SignalsService = ReturnType<typeof createSignalsService>;
