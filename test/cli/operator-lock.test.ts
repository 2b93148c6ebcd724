import { execFile, spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { testDatabaseUrl } from "../helpers/db.js";
import { tempDir } from "./helpers.js";

const run = promisify(execFile);
const tmp = tempDir();
afterAll(() => tmp.remove());

/** `npm run lookout -- ...` on PGlite in tmp.dir, as an operator runs it. */
async function lookout(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, LOG_LEVEL: "silent", DATA_DIR: tmp.dir, DATABASE_URL: "" };
  try {
    const r = await run(process.execPath, ["--conditions=@x402-lookout/source", "--import", "tsx", "src/cli/lookout.ts", ...args], { env, timeout: 30_000 });
    return { code: 0, ...r };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

// PGlite only: on PostgreSQL the commands run beside the service, nothing is locked.
describe.skipIf(testDatabaseUrl !== undefined)("operator commands while the service runs on PGlite", () => {
  it("say to stop the service first, without a stack trace, and run once it has stopped", async () => {
    // The lock `npm start` takes on DATA_DIR (src/db/client.ts), held by another process.
    const holder = spawn(process.execPath, ["--import", "tsx", "test/helpers/hold-data-dir.ts", join(tmp.dir, "pglite.lock")], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    try {
      expect(await new Promise((resolve) => createInterface({ input: holder.stdout! }).once("line", resolve))).toBe("locked");
      for (const args of [
        ["probes", "export"],
        ["dataset", "build"],
        ["keys", "rotate"],
      ]) {
        const r = await lookout(...args);
        expect(r.code, args.join(" ")).toBe(1);
        expect(r.stderr).toContain(`lookout: the embedded database in ${tmp.dir} is in use, most likely by the running service (npm start).`);
        expect(r.stderr).toContain("Stop the service first (Ctrl-C in its terminal), run this command, then start the service again.");
        expect(r.stderr).not.toMatch(/\bat .*\.ts:\d+/);
      }
    } finally {
      holder.stdin!.end();
      await new Promise((r) => holder.once("exit", r));
    }
    const after = await lookout("probes", "export");
    expect(after.code, after.stderr).toBe(0);
    expect(after.stderr).toContain("exported 0 probe(s)");
  }, 90_000);

  it("say so in their usage", async () => {
    expect((await lookout("help")).stdout).toContain("On PGlite, stop the service first");
  });
});
