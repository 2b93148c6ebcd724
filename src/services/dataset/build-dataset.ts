import { randomBytes } from "node:crypto";
import { mkdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { SERVICE_NAME } from "../../lib/attribution.js";
import type { Clock } from "../../lib/clock.js";
import type { Logger } from "../../lib/log.js";
import { COLUMNS } from "./columns.js";
import { DATASET, type DatasetFileName } from "./constants.js";
import { license, readme, type BuildInfo } from "./documents.js";
import { csvField, FileSink, type WrittenFile } from "./file-sink.js";
import { datasetRoot } from "./paths.js";
import { datasetRows } from "./rows.js";

export interface DatasetFile extends WrittenFile {
  rows?: number;
}

export interface DatasetBuild {
  id: number;
  period: string;
  periodStart: Date;
  periodEnd: Date;
  builtAt: Date;
  rows: number;
  files: Record<DatasetFileName, DatasetFile>;
  dir: string;
}

export interface DatasetBuildDeps {
  db: Kysely<Database>;
  clock: Clock;
  log: Logger;
  /** DATA_DIR: builds go to <dataDir>/dataset/<UTC date>/. */
  dataDir: string;
  /** The base address the README and LICENSE credit. */
  publicBaseUrl: string;
}

const utcDate = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Writes the dataset of now (per-endpoint aggregates of the last 7 days) as CSV and JSON Lines
 * with its README and LICENSE into DATA_DIR/dataset/<UTC date>/, then records it. The files are
 * written into a fresh directory and moved into place, so a download never sees half a build;
 * a second build on the same day replaces the first.
 */
export async function buildDataset(deps: DatasetBuildDeps): Promise<DatasetBuild> {
  const builtAt = deps.clock.now();
  const period = utcDate(builtAt);
  const periodStart = new Date(builtAt.getTime() - DATASET.windowMs);
  const root = datasetRoot(deps.dataDir);
  const tmp = join(root, `.build-${period}-${randomBytes(4).toString("hex")}`);
  await mkdir(tmp, { recursive: true });
  try {
    const csv = new FileSink(join(tmp, "endpoints.csv"));
    const jsonl = new FileSink(join(tmp, "endpoints.jsonl"));
    await csv.write(`${COLUMNS.map((c) => c.name).join(",")}\r\n`);
    let rows = 0;
    for await (const row of datasetRows(deps.db, DATASET.pageSize)) {
      const values = COLUMNS.map((c) => c.value(row));
      await csv.write(`${values.map(csvField).join(",")}\r\n`);
      await jsonl.write(`${JSON.stringify(Object.fromEntries(COLUMNS.map((c, i) => [c.name, values[i]])))}\n`);
      rows++;
    }
    const info: BuildInfo = { period, periodStart, periodEnd: builtAt, rows, base: deps.publicBaseUrl, serviceName: SERVICE_NAME };
    const files: Record<DatasetFileName, DatasetFile> = {
      "endpoints.csv": { ...(await csv.close()), rows },
      "endpoints.jsonl": { ...(await jsonl.close()), rows },
      "README.md": await writeText(join(tmp, "README.md"), readme(info)),
      LICENSE: await writeText(join(tmp, "LICENSE"), license(info)),
    };
    const dir = join(root, period);
    await rm(dir, { recursive: true, force: true });
    await rename(tmp, dir);
    const row = await deps.db
      .insertInto("datasets")
      .values({ period, period_start: periodStart, period_end: builtAt, built_at: builtAt, files: JSON.stringify(files) })
      .onConflict((oc) => oc.column("period").doUpdateSet({ period_start: periodStart, period_end: builtAt, built_at: builtAt, files: JSON.stringify(files) }))
      .returning("id")
      .executeTakeFirstOrThrow();
    deps.log.info({ period, rows, dir }, "dataset built");
    return { id: Number(row.id), period, periodStart, periodEnd: builtAt, builtAt, rows, files, dir };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

async function writeText(path: string, text: string): Promise<WrittenFile> {
  const sink = new FileSink(path);
  await sink.write(text);
  return sink.close();
}
