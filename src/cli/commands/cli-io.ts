import type { Writable } from "node:stream";
import type { DbHandle } from "../../db/client.js";
import type { Clock } from "../../lib/clock.js";

/** What a command talks to; the entry point gives the process's, tests give their own. */
export interface CliIo {
  stdout: Writable;
  stderr: Writable & { isTTY?: boolean };
  clock: Clock;
  /** Opens (and migrates) the configured database; called only by commands that need it. */
  openDb(): Promise<DbHandle>;
}

export const line = (out: Writable, text: string): void => void out.write(`${text}\n`);
