import type { DbHandle } from "../../db/client.js";
import type { Clock } from "../../lib/clock.js";
import type { Logger } from "../../lib/log.js";
import { buildDataset } from "./build-dataset.js";
import { datasetEvidence } from "./evidence.js";
import { findDatasetFile, listDatasets } from "./list-datasets.js";
import { buildIfDue } from "./scheduler.js";

export interface DatasetConfig {
  /** DATA_DIR: where builds are written and downloads are read. */
  dataDir: string;
  /** The base address the README and LICENSE credit. */
  publicBaseUrl: string;
  /** DATASET_MIN_EVIDENCE_HOURS: the evidence the first build waits for. */
  minEvidenceHours: number;
}

export interface DatasetDeps extends DatasetConfig {
  db: Pick<DbHandle, "db" | "soleWriter">;
  clock: Clock;
  log: Logger;
}

/** The public dataset as the page, the downloads and the CLI use it. */
export function createDatasetService({ db: handle, clock, log, ...config }: DatasetDeps) {
  const { db } = handle;
  return {
    list: () => listDatasets(db),
    /** A file of a published build, or undefined for an unknown build or file name. */
    findFile: (id: string, name: string) => findDatasetFile(db, config.dataDir, id, name),
    /** How much evidence is held and when the next build is due (the /dataset page). */
    evidence: () => datasetEvidence(db, clock.now(), config.minEvidenceHours),
    build: () => buildDataset({ db, clock, log, ...config }),
    /** The weekly build, when due (the first after minEvidenceHours of evidence; one process at a time). */
    buildIfDue: () => buildIfDue({ db, soleWriter: handle.soleWriter, clock, log, ...config }),
  };
}

export type DatasetService = ReturnType<typeof createDatasetService>;
