import { join, resolve } from "node:path";
import { DATASET, PERIOD_PATTERN, type DatasetFileName } from "./constants.js";

/** DATA_DIR/dataset; refuses the in-memory data directory, which has no disk to publish from. */
export function datasetRoot(dataDir: string): string {
  if (dataDir.startsWith("memory://")) throw new Error("DATA_DIR is in memory (memory://): the dataset needs a directory on disk; set DATA_DIR");
  return resolve(dataDir, DATASET.dirName);
}

/** The file of a build; the period is checked so no stored value can point outside the root. */
export function datasetFilePath(dataDir: string, period: string, file: DatasetFileName): string {
  if (!PERIOD_PATTERN.test(period)) throw new Error(`invalid dataset period ${JSON.stringify(period)}`);
  return join(datasetRoot(dataDir), period, file);
}
