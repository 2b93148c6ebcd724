import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

const KEY = "verdict_generation";

/** What the last verdict recompute saw of the catalog. */
export interface VerdictGeneration {
  /** Bumped after every recompute; 0 before the first. */
  generation: number;
  computedAt: string | null;
  activeEndpoints: number;
  activeServices: number;
}

/**
 * Records a finished verdict recompute. API processes keep catalog-wide answers that only a
 * recompute can change (the alternatives pool, the blacklist) in memory, and read this one row
 * (a primary-key lookup) to know when those are out of date.
 */
export async function bumpVerdictGeneration(db: Kysely<Database>, now: Date, catalog: { activeEndpoints: number; activeServices: number }): Promise<void> {
  const value = (generation: ReturnType<typeof sql>) =>
    sql`jsonb_build_object('generation', ${generation}, 'computedAt', ${now.toISOString()}::text, 'activeEndpoints', ${catalog.activeEndpoints}::int, 'activeServices', ${catalog.activeServices}::int)`;
  await sql`
    insert into app_state (key, value, updated_at) values (${KEY}, ${value(sql`1`)}, ${now.toISOString()}::timestamptz)
    on conflict (key) do update set value = ${value(sql`(app_state.value ->> 'generation')::bigint + 1`)}, updated_at = excluded.updated_at`.execute(db);
}

export async function verdictGeneration(db: Kysely<Database>): Promise<VerdictGeneration> {
  const row = await db.selectFrom("app_state").select("value").where("key", "=", KEY).executeTakeFirst();
  const v = (row?.value ?? {}) as Partial<Record<keyof VerdictGeneration, unknown>>;
  return {
    generation: Number(v.generation ?? 0),
    computedAt: typeof v.computedAt === "string" ? v.computedAt : null,
    activeEndpoints: Number(v.activeEndpoints ?? 0),
    activeServices: Number(v.activeServices ?? 0),
  };
}

/**
 * A value derived from the verdicts, rebuilt when the generation moves on. Concurrent callers
 * share one rebuild; a failed rebuild is not kept.
 */
export function perGeneration<T>(db: Kysely<Database>, build: () => Promise<T>) {
  let current: { generation: number; value: Promise<T> } | undefined;
  return async (): Promise<T> => {
    const { generation } = await verdictGeneration(db);
    if (current?.generation !== generation) {
      const value = build();
      current = { generation, value };
      value.catch(() => {
        if (current?.value === value) current = undefined;
      });
    }
    return current.value;
  };
}
