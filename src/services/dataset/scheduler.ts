import { LOCKS, runExclusive } from "../../db/jobs/exclusive.js";
import { buildDataset, type DatasetBuild, type DatasetDeps } from "./build-dataset.js";
import { DATASET } from "./constants.js";

/**
 * Builds the dataset when the newest build is a week old (or there is none). Processes sharing
 * the database build one at a time (runExclusive); the others skip. The api role's dataset task
 * calls it every hour.
 */
export async function buildIfDue(deps: DatasetDeps & { soleWriter: boolean }): Promise<DatasetBuild | undefined> {
  const now = deps.clock.now();
  const newest = await deps.db
    .selectFrom("datasets")
    .select((eb) => eb.fn.max("built_at").as("at"))
    .executeTakeFirst();
  if (newest?.at && now.getTime() - new Date(newest.at).getTime() < DATASET.rebuildAfterMs) return undefined;
  // The build reads and writes through deps.db; the lock's transaction only holds the lock.
  const done = await runExclusive(deps, LOCKS.datasetBuild, () => buildDataset(deps));
  return done.ran ? done.value : undefined;
}
