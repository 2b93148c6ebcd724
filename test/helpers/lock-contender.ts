/**
 * A contender for the data-folder lock takeover test: a long-lived process taking commands on
 * stdin, so many rounds race without a process start each. "try <lockPath> <startAt>" waits for
 * the wall-clock instant startAt (ms), then locks and prints "locked" or "refused"; "release"
 * lets go of a lock it holds and prints "released".
 */
import { createInterface } from "node:readline";
import { lockDataDir, type DataDirLock } from "../../src/db/data-dir-lock.js";

let held: DataDirLock | undefined;
const say = (line: string) => process.stdout.write(`${line}\n`);

createInterface({ input: process.stdin }).on("line", (line) => {
  const [command, lockPath, startAt] = line.split(" ");
  if (command === "release") {
    held?.release();
    held = undefined;
    return say("released");
  }
  // Sleep to just before the instant, then spin: every contender starts within the same millisecond.
  const start = Number(startAt);
  setTimeout(
    () => {
      while (Date.now() < start);
      try {
        held = lockDataDir(lockPath!);
        say("locked");
      } catch (err) {
        say(`refused ${(err as Error).name}`);
      }
    },
    Math.max(0, start - Date.now() - 3),
  );
});
say("ready");
