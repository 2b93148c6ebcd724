import { spawn, spawnSync } from "node:child_process";
import { existsSync, lutimesSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";
import { DataDirLocked, lockDataDir } from "../../src/db/data-dir-lock.js";
import { ownerRecord } from "../../src/db/lock-owner.js";

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
// --kill-child: killing unshare kills the holder too; else Node closes the holder's stdin on
// unshare's exit and the orphaned holder releases the lock, which is no crash.
const namespaces = spawnSync("unshare", ["--user", "--map-root-user", "--pid", "--fork", "true"]).status === 0;

/** Starts a holder process; resolves with its first line ("locked" or "refused ..."). */
function holder(lockPath: string, ownNamespace = namespaces): Promise<{ line: string; child: ReturnType<typeof spawn> }> {
  const node = [process.execPath, "--import", "tsx", "test/helpers/hold-data-dir.ts", lockPath];
  const [cmd, ...args] = ownNamespace ? ["unshare", "--user", "--map-root-user", "--pid", "--fork", "--kill-child", ...node] : node;
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

  it("replaces a crashed holder exactly once however many processes try at the same instant: 100 rounds, one holder each", async () => {
    const dir = tempDir();
    const lockPath = join(dir, "pglite.lock");
    const pool = await Promise.all(Array.from({ length: 6 }, () => contender()));
    // Three kinds of crashed lock: a gone process of this namespace, a link untouched for 31 s
    // (a holder in another namespace), the previous version's stale directory.
    const crashed = [
      () => symlinkSync(ownerRecord().replace(/"pid":\d+/, `"pid":${goneProcess()}`), lockPath),
      () => {
        symlinkSync(JSON.stringify({ pid: 7, pidNamespace: "pid:[1]", bootId: "elsewhere", nonce: String(Math.random()) }), lockPath);
        const old = new Date(Date.now() - 31_000);
        lutimesSync(lockPath, old, old);
      },
      () => {
        mkdirSync(lockPath);
        const old = new Date(Date.now() - 31_000);
        utimesSync(lockPath, old, old);
      },
    ];
    let doubleHolders = 0;
    for (let round = 0; round < 100; round++) {
      crashed[round % crashed.length]!();
      const startAt = Date.now() + 40;
      const answers = await Promise.all(pool.map((c) => c.ask(`try ${lockPath} ${startAt}`)));
      const winners = pool.filter((_, i) => answers[i] === "locked");
      if (winners.length !== 1) doubleHolders++;
      expect(winners.length, `round ${round}: ${answers.join(", ")}`).toBe(1);
      expect(answers.filter((a) => a !== "locked").every((a) => a === "refused DataDirLocked")).toBe(true);
      // The lock on disk names the one process that said it holds it.
      expect(JSON.parse(readlinkSync(lockPath)).pid).toBe(winners[0]!.child.pid);
      expect(await winners[0]!.ask("release")).toBe("released");
      expect(existsSync(lockPath)).toBe(false);
    }
    expect(doubleHolders).toBe(0);
    // Nothing left behind: no takeover token, no moved-away lock.
    expect(readdirSync(dir)).toEqual([]);
    for (const c of pool) c.child.stdin!.end();
  }, 120_000);
});

/** A process id that no longer runs (a finished child's). */
function goneProcess(): number {
  return spawnSync("true").pid!;
}

/** A long-lived contender process (test/helpers/lock-contender.ts); ask() sends a command and awaits its line. */
async function contender() {
  const child = spawn(process.execPath, ["--import", "tsx", "test/helpers/lock-contender.ts"], { stdio: ["pipe", "pipe", "inherit"] });
  children.push(child);
  const waiting: Array<(line: string) => void> = [];
  const ready = new Promise<string>((r) => waiting.push(r));
  createInterface({ input: child.stdout! }).on("line", (line) => waiting.shift()?.(line));
  expect(await ready).toBe("ready");
  const ask = (command: string) =>
    new Promise<string>((r) => {
      waiting.push(r);
      child.stdin!.write(`${command}\n`);
    });
  return { child, ask };
}
