import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";
import { DataDirLocked, lockDataDir } from "../../src/db/data-dir-lock.js";

const dirs: string[] = [];
const children: Array<ReturnType<typeof spawn>> = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill("SIGKILL");
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "lookout-lock-"));
  dirs.push(d);
  return d;
};

// Each holder in a process-id namespace of its own when the machine allows it (root, or user
// namespaces): there both see themselves as the same small pid, which a pid file cannot tell apart.
const namespaces = spawnSync("unshare", ["--user", "--map-root-user", "--pid", "--fork", "true"]).status === 0;

/** Starts a holder process; resolves with its first line ("locked" or "refused ..."). */
function holder(lockPath: string, ownNamespace = namespaces): Promise<{ line: string; child: ReturnType<typeof spawn> }> {
  const node = [process.execPath, "--import", "tsx", "test/helpers/hold-data-dir.ts", lockPath];
  const [cmd, ...args] = ownNamespace ? ["unshare", "--user", "--map-root-user", "--pid", "--fork", ...node] : node;
  const child = spawn(cmd!, args, { stdio: ["pipe", "pipe", "inherit"] });
  children.push(child);
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", (line) => resolve({ line, child }));
    child.once("exit", (code) => reject(new Error(`holder exited ${code} without a line`)));
  });
}

describe("data-folder lock", () => {
  it("lets one of two processes take a folder; the other is refused with DataDirLocked naming it, and takes it once the first lets go", async () => {
    const dir = tempDir();
    const lockPath = join(dir, "pglite.lock");
    const first = await holder(lockPath);
    expect(first.line).toBe("locked");
    const second = await holder(lockPath).catch((e: Error) => ({ line: e.message, child: undefined }));
    expect(second.line).toBe(
      `refused DataDirLocked: the embedded database at ${dir} is in use by another process; one process per DATA_DIR (stop the other one), or set DATABASE_URL to share PostgreSQL between processes`,
    );
    expect(() => lockDataDir(lockPath)).toThrow(DataDirLocked);

    first.child.stdin!.end();
    await new Promise((r) => first.child.once("exit", r));
    const third = await holder(lockPath);
    expect(third.line).toBe("locked");
    third.child.stdin!.end();
  }, 60_000);

  it("takes over a lock whose holder stopped refreshing it (stale after 30 s), and an old version's pid file of a gone process", () => {
    const dir = tempDir();
    const lockPath = join(dir, "pglite.lock");
    mkdirSync(lockPath);
    const old = new Date(Date.now() - 31_000);
    utimesSync(lockPath, old, old);
    const taken = lockDataDir(lockPath);
    expect(() => lockDataDir(lockPath)).toThrow(/in use by this process/);
    taken.release();

    const legacyDir = tempDir();
    writeFileSync(join(legacyDir, "pglite.lock"), "99999999");
    lockDataDir(join(legacyDir, "pglite.lock")).release();
  });

  it("takes over at once from a holder of this namespace killed outright, never from a live one", async () => {
    const lockPath = join(tempDir(), "pglite.lock");
    const killed = await holder(lockPath, false);
    expect(killed.line).toBe("locked");
    expect(() => lockDataDir(lockPath)).toThrow(DataDirLocked);
    killed.child.kill("SIGKILL");
    await new Promise((r) => killed.child.once("exit", r));
    const taken = lockDataDir(lockPath);
    taken.release();
    // A holder in another pid namespace cannot be judged from here: only the stale period frees it.
    if (namespaces) {
      const apart = await holder(lockPath, true);
      apart.child.kill("SIGKILL");
      await new Promise((r) => apart.child.once("exit", r));
      expect(() => lockDataDir(lockPath)).toThrow(DataDirLocked);
    }
  }, 60_000);

  it("refuses a fresh lock left by another holder", () => {
    const lockPath = join(tempDir(), "pglite.lock");
    mkdirSync(lockPath);
    expect(() => lockDataDir(lockPath)).toThrow(DataDirLocked);
  });
});
