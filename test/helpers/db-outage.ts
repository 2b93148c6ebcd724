import { PGlite } from "@electric-sql/pglite";
import { Kysely, sql, type CompiledQuery, type DatabaseConnection, type Dialect, type Driver, type QueryResult } from "kysely";
import { openDatabase } from "../../src/db/client.js";
import { PGliteDialect } from "../../src/db/pglite-dialect.js";
import { pgliteNotifications } from "../../src/db/notifications.js";
import { createPreparedStatements } from "../../src/db/prepared.js";
import { createVerdictGenerations } from "../../src/db/read-models/verdict-generation.js";
import type { Database } from "../../src/db/schema.js";
import { pgliteParsers } from "../../src/db/type-parsers.js";
import { createTestDb, migratedTemplate, testDatabaseUrl, type TestDb } from "./db.js";
import { startTcpProxy } from "./tcp-proxy.js";

export interface DbOutage {
  /** The database the service under test uses; it goes through the outage switch. */
  db: TestDb;
  /** "tcp proxy": a real outage of PostgreSQL; "driver": PGlite, emulated (it runs in process). */
  kind: "tcp proxy" | "driver";
  /**
   * Takes the database down the moment a statement mentions `marker` (in its text, or for a
   * prepared statement on PostgreSQL also in its name), and keeps it down until restore(); that
   * statement fails. Resolves when it went down; rejects if no such statement came within 10 s.
   */
  downOnStatement(marker: string): Promise<void>;
  down(): void;
  restore(): void;
  close(): Promise<void>;
}

/**
 * A migrated test database that a test can make unavailable mid-request. With TEST_DATABASE_URL
 * the service connects through a TCP proxy that resets its connections and drops new ones, so
 * the pg driver fails exactly as it does when PostgreSQL goes away. PGlite runs inside the test
 * process and cannot be cut off, so there the Kysely driver fails every statement (built, raw or
 * precompiled, in a transaction or not) with the pg driver's "Connection terminated
 * unexpectedly" while the outage lasts.
 */
export async function createDbOutage(): Promise<DbOutage> {
  if (!testDatabaseUrl) return viaDriver();
  const direct = await createTestDb();
  const target = new URL(direct.url!);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const proxied = new URL(direct.url!);
  proxied.hostname = proxy.host;
  proxied.port = String(proxy.port);
  // Dropped idle connections are the point of the test, not news.
  const handle = await openDatabase({ databaseUrl: proxied.toString(), poolSize: 4, onPoolError: () => undefined });
  return {
    db: { ...handle, url: proxied.toString() },
    kind: "tcp proxy",
    downOnStatement: (marker) => inTime(proxy.downOn(marker), marker),
    down: () => proxy.down(),
    restore: () => proxy.up(),
    async close() {
      await handle.close();
      await proxy.close();
      await direct.close();
    },
  };
}

async function viaDriver(): Promise<DbOutage> {
  let down = false;
  let trip: { marker: string; resolve: () => void } | undefined;
  const check = (q: CompiledQuery) => {
    if (trip && q.sql.includes(trip.marker)) {
      trip.resolve();
      trip = undefined;
      down = true;
    }
    if (down) throw new Error("Connection terminated unexpectedly");
  };
  const faulty = (c: DatabaseConnection): DatabaseConnection => ({
    executeQuery: <R>(q: CompiledQuery): Promise<QueryResult<R>> => (check(q), c.executeQuery<R>(q)),
    streamQuery: <R>(q: CompiledQuery, chunkSize?: number) => (check(q), c.streamQuery<R>(q, chunkSize)),
  });
  const pglite = await PGlite.create({ dataDir: "memory://", loadDataDir: await migratedTemplate(), parsers: pgliteParsers });
  const inner = new PGliteDialect({ pglite });
  const dialect: Dialect = {
    createAdapter: () => inner.createAdapter(),
    createIntrospector: (db) => inner.createIntrospector(db),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createDriver: (): Driver => {
      const d = inner.createDriver();
      return {
        init: () => d.init(),
        acquireConnection: async () => faulty(await d.acquireConnection()),
        beginTransaction: (c, s) => d.beginTransaction(c, s),
        commitTransaction: (c) => d.commitTransaction(c),
        rollbackTransaction: (c) => d.rollbackTransaction(c),
        releaseConnection: (c) => d.releaseConnection(c),
        destroy: () => d.destroy(),
      };
    },
  };
  const db = new Kysely<Database>({ dialect });
  const prepared = createPreparedStatements(db);
  let closing: Promise<void> | undefined;
  return {
    db: {
      db,
      dialect: "pglite",
      notifications: pgliteNotifications(pglite),
      prepared,
      // Not a sole writer: the generation is read from the database, so an outage reaches it.
      soleWriter: false,
      generation: createVerdictGenerations(db, prepared, false),
      close: () => (closing ??= db.destroy()),
      ping: async () => void (await sql`select 1`.execute(db)),
    },
    kind: "driver",
    downOnStatement: (marker) => inTime(new Promise<void>((resolve) => (trip = { marker, resolve })), marker),
    down: () => void (down = true),
    restore: () => void (down = false),
    close: () => (closing ??= db.destroy()),
  };
}

function inTime(tripped: Promise<void>, marker: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the outage never started: no statement mentioned "${marker}" within 10 s`)), 10_000);
  });
  return Promise.race([tripped, late]).finally(() => clearTimeout(timer));
}
