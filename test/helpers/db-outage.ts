import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from "kysely";
import { openDatabase } from "../../src/db/client.js";
import { createTestDb, testDatabaseUrl, type TestDb } from "./db.js";
import { startTcpProxy } from "./tcp-proxy.js";

export interface DbOutage {
  /** The database the service under test uses; it goes through the outage switch. */
  db: TestDb;
  /** "tcp proxy": a real outage of PostgreSQL; "driver": PGlite, emulated (it runs in process). */
  kind: "tcp proxy" | "driver";
  /**
   * Takes the database down the moment a statement mentions `table` (that statement fails), and
   * keeps it down until restore(). Resolves when it went down.
   */
  downOnStatementAbout(table: string): Promise<void>;
  down(): void;
  restore(): void;
  close(): Promise<void>;
}

/**
 * A migrated test database that a test can make unavailable mid-request. With TEST_DATABASE_URL
 * the service connects through a TCP proxy that resets its connections and drops new ones, so
 * the pg driver fails exactly as it does when PostgreSQL goes away. PGlite runs inside the test
 * process and cannot be cut off, so there a Kysely plugin fails every statement with the
 * driver's own "Connection terminated unexpectedly" error while the outage lasts.
 */
export async function createDbOutage(): Promise<DbOutage> {
  const direct = await createTestDb();
  return testDatabaseUrl && direct.url ? viaProxy(direct) : viaPlugin(direct);
}

async function viaProxy(direct: TestDb): Promise<DbOutage> {
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
    downOnStatementAbout: (table) => proxy.downOn(table),
    down: () => proxy.down(),
    restore: () => proxy.up(),
    async close() {
      await handle.close();
      await proxy.close();
      await direct.close();
    },
  };
}

function viaPlugin(direct: TestDb): DbOutage {
  let down = false;
  let trip: { pattern: RegExp; resolve: () => void } | undefined;
  const plugin: KyselyPlugin = {
    transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
      if (trip && trip.pattern.test(JSON.stringify(args.node))) {
        trip.resolve();
        trip = undefined;
        down = true;
      }
      if (down) throw new Error("Connection terminated unexpectedly");
      return args.node;
    },
    transformResult: async (args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> => args.result,
  };
  return {
    db: { ...direct, db: direct.db.withPlugin(plugin) },
    kind: "driver",
    downOnStatementAbout: (table) => new Promise<void>((resolve) => (trip = { pattern: new RegExp(`\\b${table}\\b`), resolve })),
    down: () => void (down = true),
    restore: () => void (down = false),
    close: () => direct.close(),
  };
}
