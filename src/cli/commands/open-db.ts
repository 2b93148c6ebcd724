import type { Config } from "../../config.js";
import { openDatabase, type DbHandle } from "../../db/client.js";
import { migrate } from "../../db/migrate.js";

/** The service's own database, migrated (the CLI may run before the service ever started). */
export async function openConfiguredDb(config: Config): Promise<DbHandle> {
  const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrate(handle.db);
  } catch (err) {
    await handle.close();
    throw err;
  }
  return handle;
}
