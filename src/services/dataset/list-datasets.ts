import type { Kysely, Selectable } from "kysely";
import type { Database, DatasetsTable } from "../../db/schema.js";
import { DATASET_FILES, isDatasetFileName, type DatasetFileName } from "./constants.js";
import { datasetFilePath } from "./paths.js";

export interface PublishedFile {
  name: DatasetFileName;
  bytes: number;
  sha256: string;
  rows: number | null;
  contentType: string;
}

export interface PublishedDataset {
  id: number;
  period: string;
  periodStart: Date;
  periodEnd: Date;
  builtAt: Date;
  files: PublishedFile[];
}

type Stored = { bytes?: unknown; sha256?: unknown; rows?: unknown };

function toPublished(row: Selectable<DatasetsTable>): PublishedDataset {
  const files = (Object.keys(DATASET_FILES) as DatasetFileName[])
    .filter((name) => row.files[name])
    .map((name) => {
      const f = row.files[name] as Stored;
      return { name, bytes: Number(f.bytes), sha256: String(f.sha256), rows: typeof f.rows === "number" ? f.rows : null, contentType: DATASET_FILES[name] };
    });
  return { id: Number(row.id), period: row.period, periodStart: row.period_start, periodEnd: row.period_end, builtAt: row.built_at, files };
}

/** Every published build, newest first. */
export async function listDatasets(db: Kysely<Database>, limit = 100): Promise<PublishedDataset[]> {
  const rows = await db.selectFrom("datasets").selectAll().orderBy("built_at", "desc").orderBy("id", "desc").limit(limit).execute();
  return rows.map(toPublished);
}

/**
 * A downloadable file, looked up by build id and one of the known file names only, so no
 * request path ever reaches the file system.
 */
export async function findDatasetFile(
  db: Kysely<Database>,
  dataDir: string,
  id: string,
  name: string,
): Promise<(PublishedFile & { path: string; period: string }) | undefined> {
  if (!/^\d{1,15}$/.test(id) || !isDatasetFileName(name)) return undefined;
  const row = await db.selectFrom("datasets").selectAll().where("id", "=", Number(id)).executeTakeFirst();
  if (!row) return undefined;
  const file = toPublished(row).files.find((f) => f.name === name);
  if (!file) return undefined;
  return { ...file, period: row.period, path: datasetFilePath(dataDir, row.period, file.name) };
}
