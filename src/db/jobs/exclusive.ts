import { sql, type Kysely } from "kysely";
import type { Database } from "../schema.js";

/**
 * The advisory-lock keys of the tasks that run once at a time across processes, in one list so
 * no two tasks share one. Any fixed 64-bit integers; the first two are the values used before.
 */
export const LOCKS = {
  verdictRecompute: 402_000_001n,
  alerterEvaluation: 4_020_402_402_007n,
  datasetBuild: 402_000_003n,
  /**
   * Not a task: the writers of verdict_seq numbers hold it shared until they commit, a feed reader
   * exclusively, so it reads no number before all below it committed (migration 0020 names it too).
   */
  verdictFeed: 4_020_402_402_022n,
  /** Not a task: the paid checker's reservations take it (waiting) so every process sees one budget (decision 0051). */
  canaryBudget: 4_020_402_402_038n,
} as const;

export type Exclusive<T> = { ran: true; value: T } | { ran: false };

/**
 * Runs `fn` unless another process runs the task with this key right now, in which case it
 * skips (it does not wait). On PostgreSQL that is a transaction-level advisory lock and `fn`
 * gets the transaction; a sole writer (PGlite: one process) just runs `fn`, in a transaction only when
 * `atomic` asks for one (its writes must commit together).
 */
export async function runExclusive<T>(
  h: { db: Kysely<Database>; soleWriter: boolean },
  key: bigint,
  fn: (db: Kysely<Database>) => Promise<T>,
  opts: { atomic?: boolean } = {},
): Promise<Exclusive<T>> {
  if (h.soleWriter) {
    const value = opts.atomic ? await h.db.transaction().execute(fn) : await fn(h.db);
    return { ran: true, value };
  }
  return h.db.transaction().execute(async (tx): Promise<Exclusive<T>> => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(${sql.lit(key.toString())}::bigint) as locked`.execute(tx);
    if (!rows[0]?.locked) return { ran: false };
    return { ran: true, value: await fn(tx) };
  });
}
