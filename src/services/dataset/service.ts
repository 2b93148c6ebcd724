import type { DbHandle } from "../../db/client.js";
import type { Clock } from "../../lib/clock.js";
import type { Logger } from "../../lib/log.js";
import { buildDataset } from "./build-dataset.js";
import { findDatasetFile, listDatasets } from "./list-datasets.js";
import { buildIfDue } from "./scheduler.js";

export interface DatasetConfig {
  /** DATA_DIR: where builds are written and downloads are read. */
  dataDir: string;
  /** The base address the README and LICENSE credit. */
  publicBaseUrl: string;
}

/** The public dataset as the page, the downloads and the CLI use it. */
export function createDatasetService(handle: DbHandle, clock: Clock, log: Logger, config: DatasetConfig) {
  const { db } = handle;
  return {
    list: () => listDatasets(db),
    /** A file of a published build, or undefined for an unknown build or file name. */
    findFile: (id: string, name: string) => findDatasetFile(db, config.dataDir, id, name),
    build: () => buildDataset({ db, clock, log, ...config }),
    /** The weekly build, when a week has passed since the last one (one process at a time). */
    buildIfDue: () => buildIfDue({ db, soleWriter: handle.soleWriter, clock, log, ...config }),
  };
}

export type DatasetService = ReturnType<typeof createDatasetService>;
