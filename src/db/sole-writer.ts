import type { Kysely } from "kysely";
import type { Database } from "./schema.js";

const soleWriters = new WeakSet<Kysely<Database>>();

/**
 * Marks `db` as written by this process alone: an embedded PGlite database (its data folder is
 * locked to one process, and a memory:// one lives in it). State that every process would
 * otherwise read from the database on each call (the verdict generation) can then be tracked in
 * memory by the code that writes it.
 */
export function markSoleWriter(db: Kysely<Database>): void {
  soleWriters.add(db);
}

export function isSoleWriter(db: Kysely<Database>): boolean {
  return soleWriters.has(db);
}
