import { DAY, HOUR } from "../signals/constants.js";

/** The public dataset (docs/dataset.md): weekly, per-endpoint aggregates only, CC-BY-4.0. */
export const DATASET = {
  /** Builds live in DATA_DIR/dataset/<period>/. */
  dirName: "dataset",
  /** A new build is due when the newest is this old. */
  rebuildAfterMs: 7 * DAY,
  /** How often the scheduler looks whether a build is due. */
  checkEveryMs: HOUR,
  /** Listings read per query while writing. */
  pageSize: 1000,
  /** The window the aggregates cover (the 7-day evidence of the snapshots). */
  windowMs: 7 * DAY,
  license: {
    id: "CC-BY-4.0",
    name: "Creative Commons Attribution 4.0 International",
    url: "https://creativecommons.org/licenses/by/4.0/",
    legalCode: "https://creativecommons.org/licenses/by/4.0/legalcode",
  },
} as const;

/** Every file of a build, with how it is served. Only these names are ever served. */
export const DATASET_FILES = {
  "endpoints.csv": "text/csv; charset=utf-8",
  "endpoints.jsonl": "application/x-ndjson; charset=utf-8",
  "README.md": "text/markdown; charset=utf-8",
  LICENSE: "text/plain; charset=utf-8",
} as const;
export type DatasetFileName = keyof typeof DATASET_FILES;
export const isDatasetFileName = (name: string): name is DatasetFileName => Object.hasOwn(DATASET_FILES, name);

/** A build's period is its UTC build date; it is also its directory name. */
export const PERIOD_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
