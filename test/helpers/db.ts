import { createHash, randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { Kysely } from "kysely";
import pg from "pg";
import { openDatabase, type DbHandle } from "../../src/db/client.js";
import { migrate, MIGRATIONS_DIR } from "../../src/db/migrate.js";
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

// initdb and the migrations cost about five seconds per PGlite database; loading a tarball of a
// template costs a fraction of that. Each test file runs in a process of its own, so the template
// is kept on disk too, keyed by the migrations (and their runner) and PGlite's version: built once per machine.
const templates = new Map<boolean, Promise<Blob>>();
// The lockfile pins PGlite's version; it is the file that names it (the package does not export its package.json).
const PGLITE_VERSION = readFile(new URL("../../package-lock.json", import.meta.url), "utf8").then(
  (lock) => (JSON.parse(lock) as { packages: Record<string, { version?: string }> }).packages["node_modules/@electric-sql/pglite"]?.version ?? "unknown",
);

const TEMPLATE_DIR = join(tmpdir(), "x402-lookout-test-templates");

async function templateFile(migrated: boolean): Promise<string> {
  const hash = createHash("sha256")
    .update(await PGLITE_VERSION)
    .update(String(migrated))
    .update(await readFile(new URL("../../src/db/migrate.ts", import.meta.url)));
  if (migrated) for (const f of (await readdir(fileURLToPath(MIGRATIONS_DIR))).sort()) hash.update(f).update(await readFile(new URL(f, MIGRATIONS_DIR)));
  return join(TEMPLATE_DIR, `${migrated ? "migrated" : "bare"}-${hash.digest("hex").slice(0, 24)}.tar`);
}

/** The template from disk, else built and written (a new name renamed into place, so a reader never sees half a file). */
async function cachedTemplate(migrated: boolean): Promise<Blob> {
  const file = await templateFile(migrated);
  const kept = await readFile(file).catch(() => undefined);
  if (kept) return new Blob([kept]);
  const built = await buildTemplate(migrated);
  await mkdir(dirname(file), { recursive: true });
  const part = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  await writeFile(part, Buffer.from(await built.arrayBuffer()));
  await rename(part, file);
  // Templates of older migrations go (42 MB each); a reader that opened one keeps its bytes.
  const kind = basename(file).split("-")[0]!;
  for (const old of await readdir(TEMPLATE_DIR))
    if (old.startsWith(`${kind}-`) && old.endsWith(".tar") && old !== basename(file)) await rm(join(TEMPLATE_DIR, old), { force: true });
  return built;
}

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
    t = cachedTemplate(migrated);
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
