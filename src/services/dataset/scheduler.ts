import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { buildDataset, type DatasetBuild, type DatasetDeps } from "./build-dataset.js";
import { DATASET } from "./constants.js";

/**
 * Builds the dataset when the newest build is a week old (or there is none). Processes sharing
 * the database take a lease in app_state first, so one of them builds. The api role's dataset
 * worker calls it every hour.
 */
export async function buildIfDue(deps: DatasetDeps, owner: string = randomUUID()): Promise<DatasetBuild | undefined> {
  const now = deps.clock.now();
  const newest = await deps.db.selectFrom("datasets").select((eb) => eb.fn.max("built_at").as("at")).executeTakeFirst();
  if (newest?.at && now.getTime() - new Date(newest.at).getTime() < DATASET.rebuildAfterMs) return undefined;
  const expired = new Date(now.getTime() - DATASET.leaseMs).toISOString();
  const { rows } = await sql<{ key: string }>`
    insert into app_state (key, value, updated_at) values (${DATASET.leaseKey}, ${JSON.stringify(owner)}::jsonb, ${now.toISOString()}::timestamptz)
    on conflict (key) do update set value = excluded.value, updated_at = excluded.updated_at
    where app_state.updated_at < ${expired}::timestamptz
    returning key`.execute(deps.db);
  if (rows.length === 0) return undefined;
  try {
    return await buildDataset(deps);
  } finally {
    await deps.db.deleteFrom("app_state").where("key", "=", DATASET.leaseKey).where(sql<boolean>`value = ${JSON.stringify(owner)}::jsonb`).execute();
  }
}
