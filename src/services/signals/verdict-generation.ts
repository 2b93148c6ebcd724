import { sql, type Kysely } from "kysely";
import { coalesce } from "../../db/coalesce.js";
import { executePrepared } from "../../db/prepared.js";
import type { Database } from "../../db/schema.js";
import { isSoleWriter } from "../../db/sole-writer.js";

const KEY = "verdict_generation";

export interface VerdictGeneration {
  /** Bumped after every recompute; 0 before the first. */
  generation: number;
  computedAt: string | null;
}

/**
 * Records a finished verdict recompute. API processes keep catalog-wide answers that only a
 * recompute can change (the alternatives pool, the blacklist) in memory, and read this one row
 * (a primary-key lookup) to know when those are out of date; on a database this process writes
 * alone (PGlite), the process keeps the generation in memory instead (see currentGeneration), so
 * there `db` must be the database itself, not a transaction of it.
 */
export async function bumpVerdictGeneration(db: Kysely<Database>, now: Date): Promise<void> {
  const value = (generation: ReturnType<typeof sql>) => sql`jsonb_build_object('generation', ${generation}, 'computedAt', ${now.toISOString()}::text)`;
  const { rows } = await sql<{ value: unknown }>`
    insert into app_state (key, value, updated_at) values (${KEY}, ${value(sql`1`)}, ${now.toISOString()}::timestamptz)
    on conflict (key) do update set value = ${value(sql`(app_state.value ->> 'generation')::bigint + 1`)}, updated_at = excluded.updated_at
    returning value`.execute(db);
  remember(db, parse(rows[0]?.value));
}

export async function verdictGeneration(db: Kysely<Database>): Promise<VerdictGeneration> {
  const [row] = await executePrepared(db, "verdict-generation", db.selectFrom("app_state").select("value").where("key", "=", KEY).compile());
  return parse(row?.value);
}

function parse(value: unknown): VerdictGeneration {
  const v = (value ?? {}) as Partial<Record<keyof VerdictGeneration, unknown>>;
  return {
    generation: Number(v.generation ?? 0),
    computedAt: typeof v.computedAt === "string" ? v.computedAt : null,
  };
}

/** The newest generation seen, per sole-writer database (generations only grow). */
const known = new WeakMap<Kysely<Database>, VerdictGeneration>();

function remember(db: Kysely<Database>, g: VerdictGeneration): VerdictGeneration {
  if (!isSoleWriter(db)) return g;
  const seen = known.get(db);
  if (!seen || seen.generation < g.generation) known.set(db, g);
  return known.get(db)!;
}

const generationReads = new WeakMap<Kysely<Database>, () => Promise<VerdictGeneration>>();

/**
 * The current generation for the catalog products' calls. The calls of one event-loop turn,
 * whatever the product, share one read (coalesce), so a burst of calls costs one primary-key
 * lookup; on a sole-writer database (PGlite), only the first call reads: every bump goes
 * through this process, which remembers it.
 */
export function currentGeneration(db: Kysely<Database>): () => Promise<VerdictGeneration> {
  let read = generationReads.get(db);
  if (!read) {
    const load = coalesce<true, VerdictGeneration>(async (keys) => {
      const current = remember(db, await verdictGeneration(db));
      return keys.map(() => current);
    });
    read = () => {
      const remembered = known.get(db); // only ever set for a sole writer
      return remembered ? Promise.resolve(remembered) : load(true);
    };
    generationReads.set(db, read);
  }
  return read;
}

/** How long the call that starts a rebuild waits for it before it is answered from the previous value. */
export const REBUILD_WAIT_MS = 1_000;

/**
 * A value derived from the verdicts, rebuilt when the generation moves on. The call that finds
 * a new generation starts the rebuild and waits for it up to REBUILD_WAIT_MS; calls meanwhile
 * get the previous value (it is at most one recompute old), or wait when there is none yet.
 * Concurrent callers share one rebuild; a failed one is retried by the next call, and the
 * previous value keeps answering.
 */
export function perGeneration<T>(db: Kysely<Database>, build: () => Promise<T>, waitMs = REBUILD_WAIT_MS) {
  const generationNow = currentGeneration(db);
  let ready: { generation: number; value: T } | undefined;
  let building: { generation: number; promise: Promise<T> } | undefined;
  const previous = () => ready!.value;

  return async (): Promise<T> => {
    const { generation } = await generationNow();
    if (ready?.generation === generation) return ready.value;
    if (building?.generation === generation) return ready ? ready.value : building.promise;

    const promise = build().then((value) => {
      if (!ready || ready.generation < generation) ready = { generation, value };
      return value;
    });
    building = { generation, promise };
    void promise.then(
      () => (building?.promise === promise ? (building = undefined) : undefined),
      () => (building?.promise === promise ? (building = undefined) : undefined),
    );
    if (!ready) return promise;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<T>((resolve) => (timer = setTimeout(() => resolve(previous()), waitMs)));
    try {
      return await Promise.race([promise.catch(previous), waited]);
    } finally {
      clearTimeout(timer);
    }
  };
}
