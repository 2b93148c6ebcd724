import { createHash, randomUUID } from "node:crypto";
import { linkSync, lstatSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, unlinkSync } from "node:fs";
import { isAlive, ownerIsGone, parseOwner } from "./lock-owner.js";

/**
 * Taking over a dead holder's data-folder lock as a compare-and-swap. Removing the dead lock and
 * making a new one are two steps, so two processes that both judged it dead could each remove a
 * lock and both end up holding one. Here a takeover first claims the dead holding by name: a
 * token link named after that holding's identity, made exclusively, so exactly one process
 * replaces any one holding; it then checks the lock still is that holding before moving it away.
 */
export const STALE_MS = 30_000;

/** What sits at the lock path: an identity that never recurs for another holding, and whether its holder is dead. */
export interface Seen {
  id: string;
  dead: boolean;
}

export function inspect(lockPath: string): Seen | null {
  const target = readLink(lockPath);
  const st = stat(lockPath);
  if (st === null) return null;
  const stale = Date.now() - Number(st.mtimeMs) > STALE_MS;
  if (st.isSymbolicLink()) {
    // Read twice around the stat: the link's age is then that of the holding named (nonces never recur).
    if (target === null || readLink(lockPath) !== target) return { id: "changing", dead: false };
    return { id: `link:${target}`, dead: stale || ownerIsGone(parseOwner(target)) };
  }
  if (st.isDirectory()) {
    // The previous version's lock (proper-lockfile's directory, its owner record beside it).
    const owner = parseOwner(readText(`${lockPath}.owner`) ?? "");
    return { id: `dir:${st.ino}:${st.mtimeNs}`, dead: stale || ownerIsGone(owner) };
  }
  // Older versions wrote the holder's process id into a file.
  const text = readText(lockPath) ?? "";
  const pid = Number.parseInt(text.trim(), 10);
  const alive = Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid);
  return { id: `file:${st.ino}:${text}`, dead: !alive };
}

/** Replaces the dead holding `seen` with a link to `record`; false when another process won or the lock changed. */
export function takeOver(lockPath: string, seen: Seen, record: string): boolean {
  const token = `${lockPath}.takeover-${createHash("sha256").update(seen.id).digest("hex").slice(0, 24)}`;
  if (!makeLink(record, token) && !dropDeadToken(token)) return false;
  try {
    if (inspect(lockPath)?.id !== seen.id) return false; // that holding was already replaced
    const tomb = `${lockPath}.dead-${randomUUID()}`;
    renameSync(lockPath, tomb);
    // A crashed takeover's token can be dropped twice (dropDeadToken): then the lock moved may be
    // a live one; it is put back unless someone has already made a new one.
    if (inspect(tomb)?.id !== seen.id) {
      if (stat(tomb)?.isSymbolicLink()) makeHardLink(tomb, lockPath);
      rmSync(tomb, { force: true });
      return false;
    }
    rmSync(tomb, { recursive: true, force: true });
    rmSync(`${lockPath}.owner`, { force: true });
    return makeLink(record, lockPath);
  } finally {
    // Safe to drop: the lock no longer is `seen`, and a late claimant's check above fails.
    if (readLink(token) === record) unlinkSync(token);
  }
}

/** A token left by a takeover that crashed (its process gone, or older than the stale period) is removed. */
function dropDeadToken(token: string): boolean {
  const target = readLink(token);
  const st = stat(token);
  if (target === null || st === null) return false;
  if (!ownerIsGone(parseOwner(target)) && Date.now() - Number(st.mtimeMs) <= STALE_MS) return false;
  rmSync(token, { force: true });
  return false; // the caller's next attempt at the holding starts over
}

export function makeLink(record: string, path: string): boolean {
  try {
    symlinkSync(record, path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
}

function makeHardLink(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch {
    // Someone made a new lock meanwhile: the moved holder learns it has lost the lock at its next refresh.
  }
}

export const readLink = (path: string): string | null => attempt(() => readlinkSync(path));
const readText = (path: string): string | null => attempt(() => readFileSync(path, "utf8"));
const stat = (path: string) => attempt(() => lstatSync(path, { bigint: true }));

function attempt<T>(f: () => T): T | null {
  try {
    return f();
  } catch {
    return null;
  }
}
