import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { openDatabase, type DbHandle } from "../../src/db/client.js";
import { migrate } from "../../src/db/migrate.js";
import { admin, withDatabase } from "../../test/helpers/db.js";

/** url: the database's connection string, on PostgreSQL (another process can open it). */
export type BenchDb = DbHandle & { label: string; url?: string };

export interface BenchDbOptions {
  /** PostgreSQL pool size (default 10). */
  poolSize?: number;
  /** PGlite only: use this data folder (close() leaves it) instead of a temporary one (close() deletes it). */
  dataDir?: string;
  /** PostgreSQL only: create the database as a copy of this one (CREATE DATABASE ... TEMPLATE). */
  template?: string;
}

/**
 * A PGlite data folder on disk, as `npm start` uses by default (DATA_DIR=./data; an in-memory
 * PGlite would keep every table inside the process), or with a server URL a fresh database on
 * that PostgreSQL server. Either is migrated, and removed again by close().
 */
export async function openBenchDb(serverUrl: string | undefined, opts: BenchDbOptions = {}): Promise<BenchDb> {
  if (!serverUrl) {
    const dir = opts.dataDir ?? mkdtempSync(join(tmpdir(), "lookout-bench-"));
    const h = await openDatabase({ dataDir: dir });
    await migrate(h.db);
    return {
      ...h,
      label: `PGlite (data folder ${dir})`,
      close: async () => {
        await h.close();
        if (!opts.dataDir) rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `lookout_bench_${randomBytes(4).toString("hex")}`;
  await admin(serverUrl, `create database ${name}${opts.template ? ` template ${opts.template}` : ""}`);
  const url = withDatabase(serverUrl, name);
  const h = await openDatabase({ databaseUrl: url, poolSize: opts.poolSize ?? 10 });
  await migrate(h.db);
  const version = await sql<{ v: string }>`select current_setting('server_version') as v`.execute(h.db);
  return {
    ...h,
    label: `PostgreSQL ${version.rows[0]!.v}`,
    url,
    close: async () => {
      await h.close();
      await admin(serverUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

/** Whether the PostgreSQL server at serverUrl has a database of this name. */
export async function databaseExists(serverUrl: string, name: string): Promise<boolean> {
  return (await admin(serverUrl, "select 1 from pg_database where datname = $1", [name])).length === 1;
}
