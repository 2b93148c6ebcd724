import { createHash } from "node:crypto";
import type { CompiledQuery, Kysely } from "kysely";
import type pg from "pg";
import type { Database } from "./schema.js";

type PreparedRunner = (name: string, sql: string, parameters: readonly unknown[]) => Promise<unknown[]>;

const runners = new WeakMap<Kysely<Database>, PreparedRunner>();

/** Lets executePrepared send `db`'s hot statements through the pool as named statements. */
export function registerPreparedStatements(db: Kysely<Database>, pool: pg.Pool): void {
  runners.set(db, async (name, sql, parameters) => (await pool.query({ name, text: sql, values: [...parameters] })).rows);
}

/**
 * Runs a hot-path statement as a named prepared statement on PostgreSQL: each pooled connection
 * parses and plans it once instead of on every call (planning the listing lookup costs several
 * times its execution). The name carries a hash of the SQL text, so every distinct text (an IN
 * list of another length, say) is its own statement; callers keep the number of variants small.
 * Elsewhere (PGlite, a transaction) it runs as an ordinary query.
 */
export async function executePrepared<R>(db: Kysely<Database>, name: string, compiled: CompiledQuery<R>): Promise<R[]> {
  const run = runners.get(db);
  if (!run) return (await db.executeQuery(compiled)).rows;
  return (await run(statementName(name, compiled.sql), compiled.sql, compiled.parameters)) as R[];
}

/** Statement names by SQL text: the hot path's texts are few and constant, so each is hashed once. */
const names = new Map<string, string>();
const MAX_NAMES = 1_000;

function statementName(name: string, sql: string): string {
  const key = `${name}\u0000${sql}`;
  let full = names.get(key);
  if (full === undefined) {
    full = `${name}:${createHash("sha1").update(sql).digest("hex").slice(0, 12)}`;
    if (names.size >= MAX_NAMES) names.clear();
    names.set(key, full);
  }
  return full;
}
