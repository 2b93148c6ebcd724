import { lstatSync, readFileSync, rmSync } from "node:fs";
import { dirname, resolve } from "node:path";
import lockfile from "proper-lockfile";
import { isAlive, ownerIsGone, removeOwner, writeOwner } from "./lock-owner.js";

/**
 * An exclusive lock on an embedded database folder. PGlite has no locking of its own and two
 * processes writing one folder corrupt it. The lock is proper-lockfile's: a directory made with
 * mkdir (atomic on every filesystem) whose mtime the holder refreshes, so it holds across process
 * id namespaces (two containers sharing a volume). A holder that died leaves a lock that is taken
 * over at once when its owner record shows a gone process of this namespace and boot
 * (lock-owner.ts), else once it is STALE_MS old.
 */
export interface DataDirLock {
  release(): void;
}

/** Another process (or this one) holds the folder; `folder` names it. Operator commands explain it. */
export class DataDirLocked extends Error {
  override name = "DataDirLocked";
  constructor(
    readonly folder: string,
    readonly byThisProcess: boolean,
  ) {
    super(
      `the embedded database at ${folder} is in use by ${byThisProcess ? "this process" : "another process"}; ` +
        "one process per DATA_DIR (stop the other one), or set DATABASE_URL to share PostgreSQL between processes",
    );
  }
}

// A holder refreshes every UPDATE_MS; a lock untouched for STALE_MS is a dead holder's. The margin
// covers an event loop blocked by PGlite's start (WebAssembly compiling, migrations).
const STALE_MS = 30_000;
const UPDATE_MS = 5_000;

const heldHere = new Set<string>();

export function lockDataDir(path: string): DataDirLock {
  const lockPath = resolve(path);
  const folder = dirname(lockPath);
  dropLegacyPidFile(lockPath, folder);
  let unlock: () => void;
  try {
    unlock = take(lockPath, folder);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ELOCKED") throw err;
    if (heldHere.has(lockPath) || !ownerIsGone(lockPath)) throw new DataDirLocked(folder, heldHere.has(lockPath));
    rmSync(lockPath, { recursive: true, force: true });
    unlock = take(lockPath, folder);
  }
  writeOwner(lockPath);
  heldHere.add(lockPath);
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      heldHere.delete(lockPath);
      removeOwner(lockPath);
      try {
        unlock();
      } catch {
        // Already gone (compromised, or removed by hand): nothing left to release.
      }
    },
  };
}

function take(lockPath: string, folder: string): () => void {
  return lockfile.lockSync(lockPath, {
    realpath: false,
    lockfilePath: lockPath,
    stale: STALE_MS,
    update: UPDATE_MS,
    // Another process took the lock over (this one stalled past STALE_MS): say so plainly; the
    // default throws from a timer, which would kill the process mid-write.
    onCompromised: (err) => console.error(`data-folder lock on ${folder} lost (${err.message}); stop one of the processes sharing it`),
  });
}

/** Versions before this one wrote a process-id file at the same path: removed when its process is gone. */
function dropLegacyPidFile(lockPath: string, folder: string): void {
  let isFile: boolean;
  try {
    isFile = lstatSync(lockPath).isFile();
  } catch {
    return;
  }
  if (!isFile) return;
  const pid = Number.parseInt(readFileSync(lockPath, "utf8").trim(), 10);
  if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) throw new DataDirLocked(folder, false);
  rmSync(lockPath, { force: true });
}
