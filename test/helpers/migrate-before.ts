import { copyFile, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { MIGRATIONS_DIR, migrate } from "../../src/db/migrate.js";
import { createTestDb, type TestDb } from "./db.js";

/**
 * A test database migrated up to, not including, migration `number` (its bundled files copied to
 * a folder of their own), so a test can store data as it stood before and then apply the rest.
 */
export async function migratedBefore(number: string): Promise<{ h: TestDb; cleanup: () => Promise<void> }> {
  const h = await createTestDb({ migrate: false });
  const dir = await mkdtemp(join(tmpdir(), `lookout-${number}-`));
  const bundled = (await readdir(fileURLToPath(MIGRATIONS_DIR))).filter((f) => f.endsWith(".sql")).sort();
  for (const f of bundled.filter((f) => f < number)) await copyFile(join(fileURLToPath(MIGRATIONS_DIR), f), join(dir, f));
  await migrate(h.db, { dir: pathToFileURL(`${dir}/`) });
  return { h, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
