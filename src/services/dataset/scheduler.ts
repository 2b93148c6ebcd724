import { LOCKS, runExclusive } from "../../db/jobs/exclusive.js";
import { buildDataset, type DatasetBuild, type DatasetBuildDeps } from "./build-dataset.js";
import { datasetEvidence } from "./evidence.js";

/**
 * Builds the dataset when it is due: a week after the newest build, and the first one only once
 * `minEvidenceHours` of probe evidence exist, so the first public snapshot is never empty or a few
 * minutes thin. Processes sharing the database build one at a time (runExclusive); the others
 * skip. The api role's dataset task calls it every hour, once the process has fully started.
 */
export async function buildIfDue(deps: DatasetBuildDeps & { soleWriter: boolean; minEvidenceHours: number }): Promise<DatasetBuild | undefined> {
  const now = deps.clock.now();
  const evidence = await datasetEvidence(deps.db, now, deps.minEvidenceHours);
  if (!evidence.nextBuildAt || now < evidence.nextBuildAt) return undefined;
  // The build reads and writes through deps.db; the lock's transaction only holds the lock.
  const done = await runExclusive(deps, LOCKS.datasetBuild, () => buildDataset(deps));
  return done.ran ? done.value : undefined;
}
