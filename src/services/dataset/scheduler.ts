import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { Config } from "../../config.js";
import type { AppContext } from "../../context.js";
import { startPeriodic, type Periodic } from "../../workers/periodic.js";
import { buildDataset, type DatasetBuild } from "./build-dataset.js";
import { DATASET } from "./constants.js";

type Ctx = Pick<AppContext, "db" | "clock" | "log"> & { config: Pick<Config, "dataDir" | "publicBaseUrl"> };

/**
 * Builds the dataset when the newest build is a week old (or there is none). Processes sharing
 * the database take a lease in app_state first, so one of them builds.
 */
export async function buildIfDue(ctx: Ctx, owner: string = randomUUID()): Promise<DatasetBuild | undefined> {
  const now = ctx.clock.now();
  const newest = await ctx.db.db.selectFrom("datasets").select((eb) => eb.fn.max("built_at").as("at")).executeTakeFirst();
  if (newest?.at && now.getTime() - new Date(newest.at).getTime() < DATASET.rebuildAfterMs) return undefined;
  const expired = new Date(now.getTime() - DATASET.leaseMs).toISOString();
  const { rows } = await sql<{ key: string }>`
    insert into app_state (key, value, updated_at) values (${DATASET.leaseKey}, ${JSON.stringify(owner)}::jsonb, ${now.toISOString()}::timestamptz)
    on conflict (key) do update set value = excluded.value, updated_at = excluded.updated_at
    where app_state.updated_at < ${expired}::timestamptz
    returning key`.execute(ctx.db.db);
  if (rows.length === 0) return undefined;
  try {
    return await buildDataset(ctx);
  } finally {
    await ctx.db.db.deleteFrom("app_state").where("key", "=", DATASET.leaseKey).where(sql<boolean>`value = ${JSON.stringify(owner)}::jsonb`).execute();
  }
}

/** The weekly snapshot as a periodic task: checks every hour, builds when a week has passed. */
export function startDatasetScheduler(ctx: Ctx, intervalMs: number = DATASET.checkEveryMs): Periodic {
  const owner = randomUUID();
  return startPeriodic("dataset", intervalMs, async () => void (await buildIfDue(ctx, owner)), ctx.log);
}
