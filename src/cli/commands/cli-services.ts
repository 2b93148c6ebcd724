import { pino } from "pino";
import { Registry } from "prom-client";
import { loadConfig } from "../../config.js";
import { createServices, type Services, type ServicesConfig } from "../../services/index.js";
import type { CliIo } from "./cli-io.js";

/**
 * Runs `work` on the services over the configured database, built by createServices like the
 * server's, then closes both. Commands print their own output, so the services log nothing.
 */
export async function withServices<T>(io: CliIo, work: (services: Services) => Promise<T>, config: ServicesConfig = loadConfig()): Promise<T> {
  const db = await io.openDb();
  const services = createServices({ db, clock: io.clock, log: pino({ level: "silent" }), metrics: new Registry(), config });
  try {
    return await work(services);
  } finally {
    await services.close();
    await db.close();
  }
}
