import { randomUUID } from "node:crypto";
import { readFileSync, readlinkSync } from "node:fs";

/**
 * Who holds a data-folder lock. The lock is a symbolic link whose target is this record, so the
 * lock and its owner come into being in one atomic step, and the nonce makes every holding
 * distinct (a takeover names exactly the holding it replaces). A process id means something only
 * in its own pid namespace on its own boot, so all three are recorded and a holder is judged gone
 * only when the namespace and boot are this process's own.
 */
export interface Owner {
  pid: number;
  pidNamespace: string | null;
  bootId: string | null;
  nonce?: string;
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

/** A fresh owner record for a new holding, as link text. */
export const ownerRecord = (): string => JSON.stringify({ ...self(), nonce: randomUUID() });

export function parseOwner(text: string): Partial<Owner> | null {
  try {
    const owner = JSON.parse(text) as unknown;
    return owner !== null && typeof owner === "object" ? (owner as Partial<Owner>) : null;
  } catch {
    return null; // a torn or foreign record: only the stale period can tell
  }
}

/** Whether the recorded holder is a process of this namespace and boot that no longer runs. */
export function ownerIsGone(owner: Partial<Owner> | null): boolean {
  if (owner === null) return false;
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
