import { lutimesSync, unlinkSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { ownerRecord } from "./lock-owner.js";
import { inspect, makeLink, readLink, takeOver } from "./lock-takeover.js";

/**
 * An exclusive lock on an embedded database folder. PGlite has no locking of its own and two
 * processes writing one folder corrupt it. The lock is a symbolic link made with symlink(2)
 * (atomic and exclusive on every filesystem) whose target is its owner record and whose mtime the
 * holder refreshes, so it holds across process-id namespaces (two containers sharing a volume).
 * A holder that died is taken over at once when its record shows a gone process of this
 * namespace and boot (lock-owner.ts), else once the link is STALE_MS old; exactly one process
 * replaces a dead holding however many try at once (lock-takeover.ts).
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

// A holder refreshes every UPDATE_MS; the stale period (30 s) leaves room for an event loop
// blocked by PGlite's start (WebAssembly compiling, migrations).
const UPDATE_MS = 5_000;

const heldHere = new Set<string>();

export function lockDataDir(path: string): DataDirLock {
  const lockPath = resolve(path);
  const folder = dirname(lockPath);
  if (heldHere.has(lockPath)) throw new DataDirLocked(folder, true);
  const record = ownerRecord();
  if (!acquire(lockPath, record)) throw new DataDirLocked(folder, false);
  heldHere.add(lockPath);
  const refresh = setInterval(() => {
    if (readLink(lockPath) === record) return touch(lockPath);
    clearInterval(refresh);
    console.error(`data-folder lock on ${folder} lost (taken over as stale); stop one of the processes sharing it`);
  }, UPDATE_MS).unref();
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      clearInterval(refresh);
      heldHere.delete(lockPath);
      if (readLink(lockPath) === record) unlinkSync(lockPath);
    },
  };
}

/** Makes the lock, or takes over a dead holder's; a few rounds, as a crashed takeover's token is cleared first. */
function acquire(lockPath: string, record: string): boolean {
  for (let round = 0; round < 3; round++) {
    if (makeLink(record, lockPath)) return true;
    const seen = inspect(lockPath);
    if (seen === null) continue; // released meanwhile
    if (!seen.dead) return false;
    if (takeOver(lockPath, seen, record)) return true;
    if (inspect(lockPath)?.id !== seen.id) return false; // someone else replaced it
  }
  return false;
}

function touch(lockPath: string): void {
  const now = new Date();
  try {
    lutimesSync(lockPath, now, now);
  } catch {
    // Gone meanwhile: the next refresh reports the loss.
  }
}
