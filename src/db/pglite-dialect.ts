import type { PGlite, Results } from "@electric-sql/pglite";
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from "kysely";

/**
 * Kysely over embedded PGlite. PGlite is a single backend session, so the driver hands its one
 * connection out exclusively: a Kysely transaction owns the session from BEGIN to COMMIT and
 * every other query waits its turn instead of running inside someone else's transaction.
 * Consequence: code inside `db.transaction().execute(trx => ...)` must use `trx`, never `db`,
 * or it waits for itself (on PostgreSQL the same mistake silently escapes the transaction).
 */

export interface PGliteDialectConfig {
  /** The instance, or a factory called once on first use. */
  pglite: PGlite | (() => Promise<PGlite>);
  /** Whether destroying Kysely closes PGlite (default true). */
  closeOnDestroy?: boolean;
}

export class PGliteDialect implements Dialect {
  constructor(private readonly config: PGliteDialectConfig) {}

  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new PGliteDriver(this.config);
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Kysely's Dialect signature
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }

  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }
}

/** FIFO lock: each waiter gets the connection in the order it asked. */
class Mutex {
  private tail: Promise<void> = Promise.resolve();

  acquire(): Promise<() => void> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const ready = this.tail.then(() => release);
    this.tail = this.tail.then(() => held);
    return ready;
  }
}

class PGliteDriver implements Driver {
  private readonly mutex = new Mutex();
  private pglite: PGlite | undefined;
  private connection: PGliteConnection | undefined;
  private release: (() => void) | undefined;

  constructor(private readonly config: PGliteDialectConfig) {}

  async init(): Promise<void> {
    const source = this.config.pglite;
    this.pglite = typeof source === "function" ? await source() : source;
    await this.pglite.waitReady;
    this.connection = new PGliteConnection(this.pglite);
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.mutex.acquire();
    if (!this.connection) {
      release();
      throw new Error("PGlite driver has been destroyed");
    }
    this.release = release;
    return this.connection;
  }

  async releaseConnection(): Promise<void> {
    const release = this.release;
    this.release = undefined;
    release?.();
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    let text = "begin";
    if (settings.isolationLevel || settings.accessMode) {
      text = "start transaction";
      if (settings.isolationLevel) text += ` isolation level ${settings.isolationLevel}`;
      if (settings.accessMode) text += ` ${settings.accessMode}`;
    }
    await connection.executeQuery(CompiledQuery.raw(text));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("commit"));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("rollback"));
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteIdent(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to savepoint ${quoteIdent(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release savepoint ${quoteIdent(name)}`));
  }

  async destroy(): Promise<void> {
    const pglite = this.pglite;
    if (!pglite) return;
    // Wait for the query in flight (if any) so close() does not cut it off.
    const release = await this.mutex.acquire();
    this.pglite = undefined;
    this.connection = undefined;
    try {
      if (this.config.closeOnDestroy !== false && !pglite.closed) await pglite.close();
    } finally {
      release();
    }
  }
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

const ROW_COUNT_COMMANDS = new Set(["INSERT", "UPDATE", "DELETE", "MERGE"]);

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pglite: PGlite) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.run<R>(compiledQuery);
    const command = result.command?.toUpperCase();
    return {
      rows: result.rows,
      numAffectedRows: command && ROW_COUNT_COMMANDS.has(command) ? BigInt(result.rowCount ?? result.affectedRows ?? 0) : undefined,
    };
  }

  // The PostgreSQL side streams only with pg-cursor, which is not installed; failing the same
  // way here keeps code that streams from passing on PGlite and breaking on PostgreSQL.
  // eslint-disable-next-line require-yield -- always throws
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("streaming queries is not supported: use keyset-paginated queries (or add pg-cursor to both dialects)");
  }

  // Without parameters, use the simple protocol as node-postgres does: it accepts several
  // statements in one string (migrations) and reports the last statement's result.
  private async run<R>(compiledQuery: CompiledQuery): Promise<Results<R>> {
    if (compiledQuery.parameters.length > 0) {
      return this.pglite.query<R>(compiledQuery.sql, [...compiledQuery.parameters]);
    }
    const results = await this.pglite.exec(compiledQuery.sql);
    const last = results[results.length - 1];
    return (last ?? { rows: [], fields: [] }) as Results<R>;
  }
}
