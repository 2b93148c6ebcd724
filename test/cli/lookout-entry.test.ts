import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DbHandle } from "../../src/db/client.js";
import { migrate } from "../../src/db/migrate.js";
import { createTestDb, testDatabaseUrl, type TestDb } from "../helpers/db.js";
import { seedListings, tempDir } from "./helpers.js";

const run = promisify(execFile);
const tmp = tempDir();
let env: Record<string, string>;
let pg: TestDb | undefined;

/** `npm run lookout -- ...` as an operator runs it, on the configured database. */
async function lookout(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--conditions=@x402-lookout/source", "--import", "tsx", "src/cli/lookout.ts", ...args], {
      env: { ...process.env, LOG_LEVEL: "silent", ...env },
      timeout: 20_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(async () => {
  let db: DbHandle;
  if (testDatabaseUrl) {
    pg = await createTestDb();
    db = pg;
    env = { DATABASE_URL: pg.url! };
  } else {
    // The CLI takes the data dir's lock, so the test lets go of it before running the CLI.
    db = await openDatabase({ dataDir: tmp.dir });
    await migrate(db.db);
    env = { DATA_DIR: tmp.dir };
  }
  await seedListings(db, new Date("2026-11-19T00:00:00Z"), [{ url: "https://api.example.com/a" }]);
  if (!pg) await db.close();
});
afterAll(async () => {
  await pg?.close();
  tmp.remove();
});

describe("npm run lookout", () => {
  it("prints usage and exits 2 on a bad command line", async () => {
    const r = await lookout("probes", "frobnicate");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("lookout: unknown probes subcommand 'frobnicate'");
    expect(r.stderr).toContain("probes import <file.ndjson>");
  });

  it("imports into and exports from the configured database", async () => {
    const lines = [
      { url: "https://api.example.com/a", method: "POST", at: "2026-11-19T10:00:00.000Z", status: 402, latency_ms: 80, price_usdc: "0.01" },
      {
        url: "https://api.example.com/a",
        method: "POST",
        at: "2026-11-19T10:10:00.000Z",
        network_error: "connect_refused",
        latency_ms: null,
        price_usdc: null,
      },
    ];
    const file = tmp.file("history.ndjson");
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n"));
    const imported = await lookout("probes", "import", file);
    expect(imported.stderr).toBe("");
    expect(imported).toMatchObject({ code: 0, stdout: "imported 2 probe(s) from 2 line(s); 0 already present; 0 bad line(s) skipped\n" });

    const exported = await lookout("probes", "export");
    expect(exported).toMatchObject({ code: 0, stderr: "exported 2 probe(s)\n" });
    expect(
      exported.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l)),
    ).toEqual(lines);
  });
});
