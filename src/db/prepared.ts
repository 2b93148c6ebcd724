import { createHash } from "node:crypto";
import type { CompiledQuery, Kysely } from "kysely";
import type pg from "pg";
import type { Database } from "./schema.js";

/** A database handle's hot-path statements (DbHandle.prepared). */
export interface PreparedStatements {
  /**
   * Runs a hot-path statement as a named prepared statement on PostgreSQL: each pooled
   * connection parses and plans it once instead of on every call (planning the listing lookup
   * costs several times its execution). The name carries a hash of the SQL text, so every
   * distinct text (an IN list of another length, say) is its own statement; callers keep the
   * number of variants small. On PGlite it runs as an ordinary query.
   */
  execute<R>(name: string, compiled: CompiledQuery<R>): Promise<R[]>;
}

const MAX_NAMES = 1_000;

/** `pool`: the PostgreSQL pool behind `db`; without one, statements run as ordinary queries. */
export function createPreparedStatements(db: Kysely<Database>, pool?: pg.Pool): PreparedStatements {
  if (!pool) return { execute: async (_name, compiled) => (await db.executeQuery(compiled)).rows };
  // Statement names by SQL text: the hot path's texts are few and constant, so each is hashed once.
  const names = new Map<string, string>();
  const statementName = (name: string, sql: string) => {
    const key = `${name}\u0000${sql}`;
    let full = names.get(key);
    if (full === undefined) {
      full = `${name}:${createHash("sha1").update(sql).digest("hex").slice(0, 12)}`;
      if (names.size >= MAX_NAMES) names.clear();
      names.set(key, full);
    }
    return full;
  };
  return {
    async execute<R>(name: string, compiled: CompiledQuery<R>) {
      const text = compiled.sql;
      return (await pool.query({ name: statementName(name, text), text, values: [...compiled.parameters] })).rows as R[];
    },
  };
}
