import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { lockDataDir, type DataDirLock } from "./data-dir-lock.js";
import { pgliteNotifications, postgresNotifications, type Notifications } from "./notifications.js";
import { PGliteDialect } from "./pglite-dialect.js";
import { createPreparedStatements, type PreparedStatements } from "./prepared.js";
import { createVerdictGenerations, type VerdictGenerations } from "./read-models/verdict-generation.js";
import type { Database } from "./schema.js";
import { pgliteParsers, pgTypes } from "./type-parsers.js";

export type DbDialect = "pglite" | "postgres";

export interface DbHandle {
  db: Kysely<Database>;
  dialect: DbDialect;
  /** Closes the pool or the embedded database; safe to call more than once. */
  close(): Promise<void>;
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  /** NOTIFY channels this process hears (NOTIFY_CHANNELS). */
  notifications: Notifications;
  /** Hot-path statements: prepared once per pooled connection on PostgreSQL. */
  prepared: PreparedStatements;
  /**
   * Written by this process alone: an embedded PGlite database (its data folder is locked to one
   * process, and a memory:// one lives in it). State that every process would otherwise read
   * from the database on each call can then be tracked in memory by the code that writes it.
   */
  soleWriter: boolean;
  /** The verdict generation, remembered in memory on a sole writer. */
  generation: VerdictGenerations;
}

/** Listing ids whose report row a committed statement changed (migration 0012's triggers). */
export const REPORT_ROWS_CHANNEL = "report_rows";
/** The channels a database handle listens to; the migrations' triggers notify them. */
export const NOTIFY_CHANNELS = [REPORT_ROWS_CHANNEL] as const;

export interface OpenDatabaseOptions {
  /** PostgreSQL connection string; when set, dataDir is ignored. */
  databaseUrl?: string;
  /** 'memory://' or a folder; PGlite files go in <dataDir>/pglite. */
  dataDir?: string;
  /**
   * PGlite only: start a new database from this data-dir tarball (PGlite dumpDataDir). Tests
   * copy a migrated template this way instead of running initdb for every database.
   */
  loadDataDir?: Blob;
  /** PostgreSQL pool size (default 10). */
  poolSize?: number;
  /** Errors of idle pooled PostgreSQL connections (server restart, network); default logs them. */
  onPoolError?: (err: Error) => void;
}

const MEMORY = "memory://";

export async function openDatabase(opts: OpenDatabaseOptions): Promise<DbHandle> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, opts);
  if (opts.dataDir) return openPglite(opts.dataDir, opts.loadDataDir);
  throw new Error("openDatabase needs a databaseUrl (PostgreSQL) or a dataDir ('memory://' or a folder) for PGlite");
}

function handle(
  db: Kysely<Database>,
  dialect: DbDialect,
  notifications: Notifications,
  prepared: PreparedStatements,
  hooks: { beforeDestroy?: () => void; afterDestroy?: () => void } = {},
): DbHandle {
  let closing: Promise<void> | undefined;
  const soleWriter = dialect === "pglite";
  return {
    db,
    dialect,
    notifications,
    prepared,
    soleWriter,
    generation: createVerdictGenerations(db, prepared, soleWriter),
    close() {
      hooks.beforeDestroy?.();
      closing ??= notifications
        .close()
        .then(() => db.destroy())
        .finally(() => hooks.afterDestroy?.());
      return closing;
    },
    async ping() {
      await sql`select 1`.execute(db);
    },
  };
}

/** The connection string without its password, for error messages and logs. */
export function redactDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    // libpq takes ?password=... (and key file paths) in the query too.
    u.search = "";
    u.hash = "";
    return u.toString();
  } catch {
    return "(unparseable DATABASE_URL)";
  }
}

async function openPostgres(databaseUrl: string, opts: OpenDatabaseOptions): Promise<DbHandle> {
  // pool.end() resolves before its sockets finish closing, so errors after close() are noise.
  let closed = false;
  const report = opts.onPoolError ?? ((err: Error) => console.error(`database pool: idle connection error: ${err.message}`));
  const notifications = postgresNotifications({
    connectionString: databaseUrl,
    types: pgTypes,
    channels: NOTIFY_CHANNELS,
    onError: (err) => {
      if (!closed) report(new Error(`listening for notifications: ${err.message}`));
    },
  });
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    // Enough for the api, prober, ingester and alerter loops of one process together; several
    // processes share one server, so each stays well under max_connections (100 by default).
    max: opts.poolSize ?? 10,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
    keepAlive: true,
    application_name: "x402-lookout",
    types: pgTypes,
    onConnect: (client) => notifications.onPoolConnect(client),
  });
  // Without a listener, an idle connection dropped by the server would crash the process.
  pool.on("error", (err) => {
    if (!closed) report(err);
  });
  // The pool listens for errors only on idle clients. A connection that drops while a query
  // holds its client (the server restarts mid-request) emits 'error' on that client, and with no
  // listener the process would die. The query itself already failed (a 503), and the pool
  // discards the broken client when it is released, so there is nothing more to do here.
  pool.on("connect", (client) => client.on("error", () => undefined));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const h = handle(db, "postgres", notifications, createPreparedStatements(db, pool), {
    beforeDestroy: () => (closed = true),
  });
  try {
    await h.ping();
  } catch (err) {
    await h.close().catch(() => undefined);
    throw new Error(`cannot reach PostgreSQL at ${redactDatabaseUrl(databaseUrl)}: ${(err as Error).message}`, {
      cause: err,
    });
  }
  return h;
}

async function openPglite(dataDir: string, loadDataDir: Blob | undefined): Promise<DbHandle> {
  let lock: DataDirLock | undefined;
  let target = MEMORY;
  if (!dataDir.startsWith(MEMORY)) {
    target = join(dataDir, "pglite");
    mkdirSync(target, { recursive: true });
    lock = lockDataDir(join(dataDir, "pglite.lock"));
  }
  try {
    const pglite = await PGlite.create({ dataDir: target, parsers: pgliteParsers, ...(loadDataDir ? { loadDataDir } : {}) });
    const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
    return handle(db, "pglite", pgliteNotifications(pglite), createPreparedStatements(db), { afterDestroy: () => lock?.release() });
  } catch (err) {
    lock?.release();
    throw err;
  }
}
