import { defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

const shared = { testTimeout: 30_000, hookTimeout: 60_000, pool: "forks" as const, maxWorkers: 3 };

/**
 * Files that never open the test database (the devnet, the demo fleet's servers, pure units,
 * and the process tests of `npm start`, which runs on its embedded PGlite). The PostgreSQL pass
 * (TEST_DATABASE_URL set) leaves them out: the PGlite pass already ran them.
 */
const databaseFree = [
  "test/chain/**",
  "test/demo/**",
  "test/lib/**",
  "test/config.test.ts",
  "test/client/contracts.test.ts",
  "test/client/package-parts.test.ts",
  "test/client/offline-guard.test.ts",
  "test/install-instructions.test.ts",
  "test/readme-limits.test.ts",
  "test/probes/endpoint-probe.test.ts",
  "test/probes/profiles.test.ts",
  "test/db/data-dir-lock.test.ts", // PGlite data folders of its own, locked by two processes
  "test/payments/credit-durability.test.ts", // its own PGlite data dir, killed and reopened
  "test/process/start-stop.test.ts",
  "test/process/guarded-agent.test.ts",
  "test/process/operations.test.ts",
];
/**
 * Files whose subject is not the database, run in the PGlite pass only: pages in a real browser
 * and the packed packages (their queries are the explorer's and the routes', tested on both
 * databases elsewhere), and demo mode's first ten minutes (demo mode is PGlite by definition).
 */
const notTheDatabase = ["test/browser/**", "test/packages/**", "test/acceptance/first-ten-minutes.test.ts"];
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const postgresSkips = onPostgres ? [...databaseFree, ...notTheDatabase] : [];

/** The pure cores' tests, beside their code: no database, socket or process; `npm run test:unit`. */
const unit = ["src/**/*.test.ts", "packages/*/src/**/*.test.ts"];

/**
 * Three projects: the unit tests; the suite of integration tests in test/, files in parallel,
 * each worker running its files one after another in one process (isolate: false) so modules,
 * the migrated database template and the devnet are loaded once per worker, not per file; and
 * the process tests, which time `npm start` end to end and so run on their own afterwards
 * (`npm test` runs all three), never competing with other files for the two cores.
 */
export default defineConfig({
  // The workspace packages run from their TypeScript sources, as `npm start` runs them.
  resolve: { conditions: ["@x402-lookout/source", ...defaultServerConditions] },
  ssr: { resolve: { conditions: ["@x402-lookout/source", ...defaultServerConditions] } },
  test: {
    projects: [
      {
        extends: true,
        // The PostgreSQL pass leaves them out: the PGlite pass already ran them.
        test: { ...shared, name: "unit", include: onPostgres ? [] : unit, pool: "threads", isolate: false },
      },
      {
        extends: true,
        test: { ...shared, name: "suite", include: ["test/**/*.test.ts"], exclude: ["test/process/**", ...postgresSkips], isolate: false },
      },
      {
        extends: true,
        test: { ...shared, name: "process", include: ["test/process/**/*.test.ts"], exclude: postgresSkips, fileParallelism: false },
      },
    ],
  },
});
