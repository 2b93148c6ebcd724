import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { sql, type Kysely } from "kysely";
import type { Database } from "./schema.js";

/**
 * Numbered plain-SQL migrations (migrations/NNNN_name.sql), applied in order, each in its own
 * transaction together with its schema_migrations row. The whole run holds a session advisory
 * lock on one dedicated connection, so processes starting together apply each file once:
 * the second waits, then finds nothing left to do. PGlite takes the same path.
 *
 * A file whose first line is `-- migrate: no-transaction` runs outside a transaction (for
 * CREATE INDEX CONCURRENTLY on big tables); it must then be safe to re-run after a crash.
 */

// Arbitrary, fixed, and shared by every process of this service.
const MIGRATION_LOCK_KEY = 4_020_402_402_001;
const FILE_PATTERN = /^(\d{4})_([a-z0-9_]+)\.sql$/;
const NO_TRANSACTION = /^--\s*migrate:\s*no-transaction\s*$/m;

export const MIGRATIONS_DIR = new URL("./migrations/", import.meta.url);

export interface MigrationFile {
  version: string;
  name: string;
  checksum: string;
  sql: string;
  transactional: boolean;
}

export interface MigrateOptions {
  /** Folder of NNNN_name.sql files; defaults to the bundled migrations. */
  dir?: URL;
}

export async function loadMigrations(dir: URL = MIGRATIONS_DIR): Promise<MigrationFile[]> {
  const entries = (await readdir(fileURLToPath(dir))).filter((f) => f.endsWith(".sql")).sort();
  const files: MigrationFile[] = [];
  const versions = new Set<string>();
  for (const file of entries) {
    const match = FILE_PATTERN.exec(file);
    if (!match) throw new Error(`migration file ${file} must be named NNNN_lowercase_name.sql`);
    const version = match[1]!;
    if (versions.has(version)) throw new Error(`two migration files share the number ${version}`);
    versions.add(version);
    const text = await readFile(new URL(file, dir), "utf8");
    files.push({
      version,
      name: file.slice(0, -".sql".length),
      // Line endings normalised: a CRLF checkout must not look like an edited migration.
      checksum: createHash("sha256").update(text.replace(/\r\n/g, "\n")).digest("hex"),
      sql: text,
      transactional: !NO_TRANSACTION.test(text.split("\n", 1)[0] ?? ""),
    });
  }
  return files;
}

export async function migrate(db: Kysely<Database>, opts: MigrateOptions = {}): Promise<{ applied: string[] }> {
  const files = await loadMigrations(opts.dir);
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${sql.lit(MIGRATION_LOCK_KEY)}::bigint)`.execute(conn);
    let failed = false;
    try {
      await sql`
        create table if not exists schema_migrations (
          version    text primary key,
          name       text not null,
          checksum   text not null,
          applied_at timestamptz not null default now()
        )`.execute(conn);
      const rows = await conn.selectFrom("schema_migrations").select(["version", "name", "checksum"]).execute();
      const done = new Map(rows.map((r) => [r.version, r]));
      const applied: string[] = [];
      for (const file of files) {
        const previous = done.get(file.version);
        if (previous) {
          if (previous.checksum !== file.checksum) {
            throw new Error(
              `migration ${file.name} changed after it was applied (as ${previous.name}); ` +
                "never edit an applied migration, add a new numbered file instead",
            );
          }
          continue;
        }
        const run = async (k: Kysely<Database>) => {
          await sql.raw(file.sql).execute(k);
          await k.insertInto("schema_migrations").values({ version: file.version, name: file.name, checksum: file.checksum }).execute();
        };
        try {
          if (file.transactional) await conn.transaction().execute(run);
          else await run(conn);
        } catch (err) {
          throw new Error(`migration ${file.name} failed: ${(err as Error).message}`, { cause: err });
        }
        applied.push(file.name);
      }
      return { applied };
    } catch (err) {
      failed = true;
      throw err;
    } finally {
      // After a failure the session may be gone (and its lock with it): keep the first error.
      await sql`select pg_advisory_unlock(${sql.lit(MIGRATION_LOCK_KEY)}::bigint)`.execute(conn).catch((err: unknown) => {
        if (!failed) throw err;
      });
    }
  });
}
