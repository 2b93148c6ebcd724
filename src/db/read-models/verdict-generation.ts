import { sql, type Kysely } from "kysely";
import { coalesce } from "../coalesce.js";
import type { PreparedStatements } from "../prepared.js";
import type { Database } from "../schema.js";

const KEY = "verdict_generation";

export interface VerdictGeneration {
  /** Bumped after every recompute; 0 before the first. */
  generation: number;
  computedAt: string | null;
}

/**
 * A database's verdict generation (DbHandle.generation). API processes keep catalog-wide answers
 * that only a recompute can change (the alternatives pool, the blacklist) in memory, and read
 * this one row (a primary-key lookup) to know when those are out of date.
 */
export interface VerdictGenerations {
  /** The stored generation, read now. */
  read(): Promise<VerdictGeneration>;
  /**
   * The current generation for the catalog products' calls. The calls of one event-loop turn
   * share one read (coalesce); on a sole-writer database (PGlite) only the first call reads:
   * every bump goes through this process, which remembers it.
   */
  current(): Promise<VerdictGeneration>;
  /**
   * Records a finished verdict recompute through `executor`: the database itself, or on
   * PostgreSQL a transaction of it (only a bump through the database itself is remembered).
   */
  bump(executor: Kysely<Database>, now: Date): Promise<void>;
}

export function createVerdictGenerations(db: Kysely<Database>, prepared: PreparedStatements, soleWriter: boolean): VerdictGenerations {
  /** The newest generation seen, on a sole writer only (generations only grow). */
  let known: VerdictGeneration | undefined;
  const remember = (g: VerdictGeneration) => {
    if (!soleWriter) return g;
    if (!known || known.generation < g.generation) known = g;
    return known;
  };
  const read = async () =>
    parse((await prepared.execute("verdict-generation", db.selectFrom("app_state").select("value").where("key", "=", KEY).compile()))[0]?.value);
  const load = coalesce<true, VerdictGeneration>(async (keys) => {
    const current = remember(await read());
    return keys.map(() => current);
  });
  return {
    read,
    current: () => (known ? Promise.resolve(known) : load(true)),
    async bump(executor, now) {
      const value = (generation: ReturnType<typeof sql>) => sql`jsonb_build_object('generation', ${generation}, 'computedAt', ${now.toISOString()}::text)`;
      const { rows } = await sql<{ value: unknown }>`
        insert into app_state (key, value, updated_at) values (${KEY}, ${value(sql`1`)}, ${now.toISOString()}::timestamptz)
        on conflict (key) do update set value = ${value(sql`(app_state.value ->> 'generation')::bigint + 1`)}, updated_at = excluded.updated_at
        returning value`.execute(executor);
      const g = parse(rows[0]?.value);
      if (executor === db) remember(g);
    },
  };
}

function parse(value: unknown): VerdictGeneration {
  const v = (value ?? {}) as Partial<Record<keyof VerdictGeneration, unknown>>;
  return {
    generation: Number(v.generation ?? 0),
    computedAt: typeof v.computedAt === "string" ? v.computedAt : null,
  };
}
