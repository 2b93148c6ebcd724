/**
 * A second process for the data-folder lock tests: locks argv[2] and prints "locked", or prints
 * "refused <error name>: <message>" and exits 3. Holds the lock until stdin closes.
 */
import { lockDataDir } from "../../src/db/data-dir-lock.js";

try {
  const lock = lockDataDir(process.argv[2]!);
  process.stdout.write("locked\n");
  process.stdin.resume();
  process.stdin.on("end", () => {
    lock.release();
    process.exit(0);
  });
} catch (err) {
  process.stdout.write(`refused ${(err as Error).name}: ${(err as Error).message}\n`);
  process.exit(3);
}
