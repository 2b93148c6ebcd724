import type { Config } from "../../config.js";
import { openDatabase, type DbHandle } from "../../db/client.js";
import { DataDirLocked } from "../../db/data-dir-lock.js";
import { migrate } from "../../db/migrate.js";

/**
 * The service's own database, migrated (the CLI may run before the service ever started). The
 * embedded database (PGlite) takes one process per DATA_DIR, so while `npm start` runs on it an
 * operator command cannot open it: that is said plainly, with what to do.
 */
export async function openConfiguredDb(config: Config): Promise<DbHandle> {
  let handle: DbHandle;
  try {
    handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  } catch (err) {
    if (err instanceof DataDirLocked) throw new ServiceRunning(err.folder);
    throw err;
  }
  try {
    await migrate(handle.db);
  } catch (err) {
    await handle.close();
    throw err;
  }
  return handle;
}

/** The embedded database is held by a running service (or another command). */
export class ServiceRunning extends Error {
  override name = "ServiceRunning";
  constructor(readonly folder: string) {
    super(
      `the embedded database in ${folder} is in use, most likely by the running service (npm start).\n` +
        "Stop the service first (Ctrl-C in its terminal), run this command, then start the service again.\n" +
        "On PostgreSQL (DATABASE_URL) operator commands run beside the service.",
    );
  }
}
