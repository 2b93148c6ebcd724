/**
 * Operator commands of x402 Lookout:  npm run lookout -- probes import <file.ndjson>
 * The database is the service's own (same environment variables as `npm start`).
 */
import { ConfigError, loadConfig } from "../config.js";
import { systemClock } from "../lib/clock.js";
import { openConfiguredDb } from "./commands/open-db.js";
import { runLookout } from "./commands/run.js";

try {
  process.exitCode = await runLookout(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    clock: systemClock,
    openDb: () => openConfiguredDb(loadConfig()),
  });
} catch (err) {
  if (err instanceof ConfigError) for (const problem of err.problems) console.error(problem);
  else console.error(`lookout: ${(err as Error).message}`);
  process.exitCode = 1;
}
