import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase, redactDatabaseUrl } from "../../src/db/client.js";
import { migrate } from "../../src/db/migrate.js";
import { testDatabaseUrl } from "../helpers/db.js";

const dirs: string[] = [];
afterEach(async () => {
  while (dirs.length) await rm(dirs.pop()!, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "lookout-data-"));
  dirs.push(dir);
  return dir;
}

describe("openDatabase", () => {
  it("keeps PGlite data in <dataDir>/pglite across restarts", async () => {
    const dataDir = await tempDir();
    const first = await openDatabase({ dataDir });
    expect(first.dialect).toBe("pglite");
    await migrate(first.db);
    await first.db
      .insertInto("app_state")
      .values({ key: "kept", value: JSON.stringify({ n: 1 }) })
      .execute();
    await first.close();
    expect(existsSync(join(dataDir, "pglite", "PG_VERSION"))).toBe(true);

    const second = await openDatabase({ dataDir });
    try {
      expect(await migrate(second.db)).toEqual({ applied: [] });
      expect(await second.db.selectFrom("app_state").select("value").executeTakeFirst()).toEqual({ value: { n: 1 } });
    } finally {
      await second.close();
    }
  });

  it("refuses a second open of one PGlite folder and frees it on close", async () => {
    const dataDir = await tempDir();
    const first = await openDatabase({ dataDir });
    await expect(openDatabase({ dataDir })).rejects.toThrow(/in use by this process/);
    await first.close();
    const again = await openDatabase({ dataDir });
    await again.close();
  });

  it("takes over a lock left by a process that died", async () => {
    const dataDir = await tempDir();
    // No live process has a pid this large (Linux caps pids at 2^22).
    await writeFile(join(dataDir, "pglite.lock"), "99999999");
    const h = await openDatabase({ dataDir });
    await h.ping();
    await h.close();
  });

  it("needs a database URL or a data folder", async () => {
    await expect(openDatabase({})).rejects.toThrow(/databaseUrl .* or a dataDir/);
  });

  it("fails fast on an unreachable server without printing the password", async () => {
    const url = "postgres://lookout:s3cret@127.0.0.1:1/lookout";
    const err = await openDatabase({ databaseUrl: url }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/cannot reach PostgreSQL at postgres:\/\/lookout:\*\*\*@127\.0\.0\.1:1\/lookout/);
    expect((err as Error).message).not.toContain("s3cret");
    expect(redactDatabaseUrl("not a url")).toBe("(unparseable DATABASE_URL)");
    expect(redactDatabaseUrl("postgres://u@db:5432/x?sslmode=require&password=s3cret")).toBe("postgres://u@db:5432/x");
  });

  it.runIf(testDatabaseUrl)("opens PostgreSQL with a pool and answers ping", async () => {
    const h = await openDatabase({ databaseUrl: testDatabaseUrl!, poolSize: 3 });
    try {
      expect(h.dialect).toBe("postgres");
      await h.ping();
      // statement_timeout is not set globally: timeouts are per query where the spec asks.
      const { rows } = await sql<{ statement_timeout: string }>`show statement_timeout`.execute(h.db);
      expect(rows[0]!.statement_timeout).toBe("0");
      const apps = await Promise.all([1, 2, 3].map(() => sql<{ a: string }>`select current_setting('application_name') as a`.execute(h.db)));
      expect(apps.map((r) => r.rows[0]!.a)).toEqual(["x402-lookout", "x402-lookout", "x402-lookout"]);
    } finally {
      await h.close();
      await h.close();
    }
  });
});
