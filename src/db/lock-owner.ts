import { readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";

/**
 * Who holds a data-folder lock, written beside it, so a holder killed outright (SIGKILL, a crash)
 * is told apart from a live one at once instead of after the lock's stale period. A process id
 * means something only in its own pid namespace on its own boot, so all three are recorded and
 * a holder is judged gone only when the namespace and boot are this process's own.
 */
interface Owner {
  pid: number;
  pidNamespace: string | null;
  bootId: string | null;
}

const read = (f: () => string): string | null => {
  try {
    return f().trim();
  } catch {
    return null;
  }
};

const self = (): Owner => ({
  pid: process.pid,
  pidNamespace: read(() => readlinkSync("/proc/self/ns/pid")),
  bootId: read(() => readFileSync("/proc/sys/kernel/random/boot_id", "utf8")),
});

export const ownerPath = (lockPath: string) => `${lockPath}.owner`;

export function writeOwner(lockPath: string): void {
  writeFileSync(ownerPath(lockPath), JSON.stringify(self()));
}

export function removeOwner(lockPath: string): void {
  rmSync(ownerPath(lockPath), { force: true });
}

/** Whether the recorded holder is a process of this namespace and boot that no longer runs. */
export function ownerIsGone(lockPath: string): boolean {
  let owner: Partial<Owner>;
  try {
    owner = JSON.parse(readFileSync(ownerPath(lockPath), "utf8")) as Partial<Owner>;
  } catch {
    return false; // no record (or a torn one): only the stale period can tell
  }
  const me = self();
  if (me.pidNamespace === null || me.bootId === null) return false;
  if (owner.pidNamespace !== me.pidNamespace || owner.bootId !== me.bootId) return false;
  return typeof owner.pid === "number" && owner.pid !== me.pid && !isAlive(owner.pid);
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
