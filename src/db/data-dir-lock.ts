import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { resolve } from "node:path";

/**
 * An exclusive pid lock on an embedded database folder. PGlite has no locking of its own and
 * two processes writing one folder corrupt it; the second process must fail with a clear
 * message instead (use DATABASE_URL to run several processes).
 */
export interface DataDirLock {
  release(): void;
}

// Paths this process holds: a lock file naming our own pid but absent here is stale (a
// container restarted with the same pid after a crash).
const heldHere = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function tryCreate(path: string): boolean {
  try {
    const fd = openSync(path, "wx");
    try {
      writeSync(fd, String(process.pid));
    } finally {
      closeSync(fd);
    }
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
}

export function lockDataDir(path: string): DataDirLock {
  const lockPath = resolve(path);
  for (let attempt = 0; attempt < 2; attempt++) {
    if (tryCreate(lockPath)) {
      heldHere.add(lockPath);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          heldHere.delete(lockPath);
          rmSync(lockPath, { force: true });
        },
      };
    }
    const holder = Number.parseInt(readFileSync(lockPath, "utf8").trim(), 10);
    const live = holder === process.pid ? heldHere.has(lockPath) : Number.isInteger(holder) && holder > 0 && isAlive(holder);
    if (live) {
      const who = holder === process.pid ? "this process" : `process ${holder}`;
      throw new Error(
        `the embedded database at ${lockPath.replace(/\.lock$/, "")} is in use by ${who}; ` +
          "one process per DATA_DIR, or set DATABASE_URL to share PostgreSQL between processes",
      );
    }
    // Left behind by a process that died: take it over.
    rmSync(lockPath, { force: true });
  }
  throw new Error(`could not lock ${lockPath}`);
}
