import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { sql, type Kysely } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase, type DbHandle } from "../../src/db/client.js";
import { loadMigrations, migrate } from "../../src/db/migrate.js";
import type { Database } from "../../src/db/schema.js";
import { createTestDb, type TestDb } from "../helpers/db.js";

const ALL_TABLES = [
  "app_state",
  "catalog_polls",
  "catalog_sources",
  "certificates",
  "chain_payees",
  "chain_settlements",
  "credits",
  "datasets",
  "delivery_checks",
  "flag_history",
  "host_checks",
  "host_rate_limits",
  "listing_quotes",
  "listing_sources",
  "listings",
  "live_probe_cache",
  "outcome_reports",
  "payments",
  "probe_hourly",
  "probe_vantages",
  "probes",
  "providers",
  "quote_terms",
  "schema_migrations",
  "services",
  "signal_snapshots",
  "signing_keys",
  "trial_cache",
  "trial_counters",
  "vantage_confirmations",
  "verdict_removals",
  "watch_signal_state",
  "watches",
  "webhook_deliveries",
];

async function tables(db: Kysely<Database>): Promise<string[]> {
  const { rows } = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'
    order by table_name`.execute(db);
  return rows.map((r) => r.table_name);
}

async function recorded(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom("schema_migrations").select("name").orderBy("version").execute();
  return rows.map((r) => r.name);
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function freshDb(): Promise<TestDb> {
  const h = await createTestDb({ migrate: false });
  cleanups.push(() => h.close());
  return h;
}

async function migrationDir(files: Record<string, string>): Promise<{ url: URL; path: string }> {
  const path = await mkdtemp(join(tmpdir(), "lookout-migrations-"));
  cleanups.push(() => rm(path, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(files)) await writeFile(join(path, name), text);
  return { path, url: pathToFileURL(`${path}/`) };
}

describe("migrate", () => {
  it("creates every table on a fresh database and records each file once", async () => {
    const h = await freshDb();
    const names = (await loadMigrations()).map((f) => f.name);
    expect(names[0]).toBe("0001_init");

    const { applied } = await migrate(h.db);

    expect(applied).toEqual(names);
    expect(await recorded(h.db)).toEqual(names);
    expect(await tables(h.db)).toEqual(ALL_TABLES);
  });

  it("applies nothing when run again", async () => {
    const h = await freshDb();
    await migrate(h.db);
    const before = await h.db.selectFrom("schema_migrations").selectAll().orderBy("version").execute();

    expect(await migrate(h.db)).toEqual({ applied: [] });
    expect(await h.db.selectFrom("schema_migrations").selectAll().orderBy("version").execute()).toEqual(before);
  });

  it("applies each migration once when two runs start together", async () => {
    const h = await freshDb();
    // On PostgreSQL a second pool, as a second process would have; PGlite has one session.
    let other: DbHandle = h;
    if (h.url) {
      other = await openDatabase({ databaseUrl: h.url, poolSize: 2 });
      cleanups.push(() => other.close());
    }

    const [a, b] = await Promise.all([migrate(h.db), migrate(other.db)]);

    const names = (await loadMigrations()).map((f) => f.name);
    expect([...a.applied, ...b.applied].sort()).toEqual(names);
    expect(a.applied.length === 0 || b.applied.length === 0).toBe(true);
    expect(await recorded(h.db)).toEqual(names);
    expect(await tables(h.db)).toEqual(ALL_TABLES);
  });

  it("rolls back a failing migration, records nothing for it, and resumes after the fix", async () => {
    const h = await freshDb();
    const dir = await migrationDir({
      "0001_first.sql": "create table first_t (id int);",
      "0002_broken.sql": "create table second_t (id int);\ninsert into second_t values ('not a number');",
    });

    await expect(migrate(h.db, { dir: dir.url })).rejects.toThrow(/migration 0002_broken failed/);
    expect(await recorded(h.db)).toEqual(["0001_first"]);
    expect(await tables(h.db)).not.toContain("second_t");

    await writeFile(join(dir.path, "0002_broken.sql"), "create table second_t (id int);");
    expect(await migrate(h.db, { dir: dir.url })).toEqual({ applied: ["0002_broken"] });
  });

  it("refuses to run when an applied migration was edited", async () => {
    const h = await freshDb();
    const dir = await migrationDir({ "0001_first.sql": "create table first_t (id int);" });
    await migrate(h.db, { dir: dir.url });

    await writeFile(join(dir.path, "0001_first.sql"), "create table first_t (id bigint);");
    await expect(migrate(h.db, { dir: dir.url })).rejects.toThrow(/0001_first changed after it was applied/);
  });

  it("treats CRLF line endings as the same file", async () => {
    const h = await freshDb();
    const dir = await migrationDir({ "0001_first.sql": "create table first_t (id int);\n-- end\n" });
    await migrate(h.db, { dir: dir.url });

    await writeFile(join(dir.path, "0001_first.sql"), "create table first_t (id int);\r\n-- end\r\n");
    expect(await migrate(h.db, { dir: dir.url })).toEqual({ applied: [] });
  });

  it("runs a file marked no-transaction outside a transaction", async () => {
    const h = await freshDb();
    const dir = await migrationDir({
      "0001_table.sql": "create table big_t (id int);",
      // CREATE INDEX CONCURRENTLY fails inside a transaction block.
      "0002_index.sql": "-- migrate: no-transaction\ncreate index concurrently big_t_id_idx on big_t (id);",
    });

    expect(await migrate(h.db, { dir: dir.url })).toEqual({ applied: ["0001_table", "0002_index"] });
  });

  it("rejects badly named or duplicate-numbered files", async () => {
    const bad = await migrationDir({ "1_first.sql": "select 1;" });
    await expect(loadMigrations(bad.url)).rejects.toThrow(/NNNN_lowercase_name\.sql/);
    const dup = await migrationDir({ "0001_a.sql": "select 1;", "0001_b.sql": "select 1;" });
    await expect(loadMigrations(dup.url)).rejects.toThrow(/share the number 0001/);
  });
});
