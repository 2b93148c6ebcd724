import { randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { Kysely } from "kysely";
import pg from "pg";
import { openDatabase, type DbHandle } from "../../src/db/client.js";
import { migrate } from "../../src/db/migrate.js";
import { PGliteDialect } from "../../src/db/pglite-dialect.js";
import type { Database } from "../../src/db/schema.js";

export type TestDb = DbHandle & { url?: string };

export interface TestDbOptions {
  /** A PostgreSQL server to create the database on (default TEST_DATABASE_URL); benchmarks pass theirs. */
  serverUrl?: string;
  /** PostgreSQL pool size (default 4). */
  poolSize?: number;
  /** Apply the bundled migrations (default true). */
  migrate?: boolean;
}

/** The PostgreSQL server tests run against, if any (TEST_DATABASE_URL). */
export const testDatabaseUrl: string | undefined = process.env.TEST_DATABASE_URL || undefined;

/** Runs one statement on a PostgreSQL server (create or drop a database, read the catalog); returns its rows. */
export async function admin(url: string, statement: string, values: unknown[] = []): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(statement, values)).rows;
  } finally {
    await client.end();
  }
}

/** The same server URL with another database name. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

// initdb costs about two seconds per PGlite database; loading a tarball of a template costs a
// fraction of that. One template per kind and test worker, built on first use.
const templates = new Map<boolean, Promise<Blob>>();

async function buildTemplate(migrated: boolean): Promise<Blob> {
  const pglite = await PGlite.create({ dataDir: "memory://" });
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
  try {
    if (migrated) await migrate(db);
    return await pglite.dumpDataDir("none");
  } finally {
    await db.destroy();
  }
}

/** The data-dir tarball of a freshly migrated PGlite database (built once per test worker). */
export const migratedTemplate = (): Promise<Blob> => template(true);

function template(migrated: boolean): Promise<Blob> {
  let t = templates.get(migrated);
  if (!t) {
    t = buildTemplate(migrated);
    templates.set(migrated, t);
    t.catch(() => templates.delete(migrated));
  }
  return t;
}

/**
 * A fresh, migrated database: in-memory PGlite by default; with TEST_DATABASE_URL, a new
 * uniquely named database on that server, dropped again by close().
 */
export async function createTestDb(opts: TestDbOptions = {}): Promise<TestDb> {
  const serverUrl = opts.serverUrl ?? testDatabaseUrl;
  if (!serverUrl) {
    return openDatabase({ dataDir: "memory://", loadDataDir: await template(opts.migrate !== false) });
  }
  // Lowercase letters, digits and underscores only, so the name needs no quoting.
  const name = `lookout_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  await admin(serverUrl, `create database ${name}`);
  const drop = async () => void (await admin(serverUrl, `drop database if exists ${name} with (force)`));
  const url = withDatabase(serverUrl, name);
  let handle: DbHandle;
  try {
    handle = await openDatabase({ databaseUrl: url, poolSize: opts.poolSize ?? 4 });
  } catch (err) {
    await drop();
    throw err;
  }
  try {
    if (opts.migrate !== false) await migrate(handle.db);
  } catch (err) {
    await handle.close();
    await drop();
    throw err;
  }
  let closing: Promise<void> | undefined;
  return {
    ...handle,
    url,
    close() {
      closing ??= handle.close().then(drop);
      return closing;
    },
  };
}
