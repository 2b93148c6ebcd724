import { Registry } from "prom-client";
import { pino } from "pino";
import { loadConfig } from "../../src/config.js";
import { Readiness, type AppContext } from "../../src/context.js";
import type { DbHandle } from "../../src/db/client.js";
import { ManualClock } from "../../src/lib/clock.js";
import { createServices } from "../../src/services/index.js";
import { createTestDb } from "./db.js";

export interface TestContext extends AppContext {
  clock: ManualClock;
  close(): Promise<void>;
}

/**
 * A real context on a fresh test database (PGlite, or PostgreSQL with TEST_DATABASE_URL), or on
 * `opts.db` when given (it is closed with the context).
 */
export async function createTestContext(env: Record<string, string> = {}, opts: { db?: DbHandle } = {}): Promise<TestContext> {
  // Without CATALOG_URLS the config is demo mode; tests keep production cadences unless they ask.
  const config = loadConfig({
    PUBLIC_BASE_URL: "http://lookout.test",
    DATA_DIR: "memory://",
    PROBE_INTERVAL_SECONDS: "600",
    ALLOW_PRIVATE_WEBHOOKS: "false",
    DATASET_MIN_EVIDENCE_HOURS: "168",
    ...env,
  });
  const db = opts.db ?? (await createTestDb());
  const readiness = new Readiness();
  readiness.markMigrated();
  const clock = new ManualClock(new Date("2026-11-20T12:00:00.000Z"));
  const log = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });
  const metrics = new Registry();
  const services = createServices({ db, clock, log, metrics, config });
  return {
    config,
    db,
    clock,
    services,
    log,
    metrics,
    readiness,
    close: async () => {
      await services.close();
      await db.close();
    },
  };
}
