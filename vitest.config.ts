import { defineConfig } from "vitest/config";

const shared = { testTimeout: 30_000, hookTimeout: 60_000, pool: "forks" as const, maxWorkers: 2 };

/**
 * Two projects: the suite, files in parallel; and the process tests, which time `npm start`
 * end to end and so run on their own afterwards (`npm test` runs both), never competing with
 * other files for the two cores.
 */
export default defineConfig({
  test: {
    projects: [
      { test: { ...shared, name: "suite", include: ["test/**/*.test.ts"], exclude: ["test/process/**"] } },
      { test: { ...shared, name: "process", include: ["test/process/**/*.test.ts"], fileParallelism: false } },
    ],
  },
});
