import type { Registry } from "prom-client";
import type { Config } from "./config.js";
import type { DbHandle } from "./db/client.js";
import type { Clock } from "./lib/clock.js";
import type { Logger } from "./lib/log.js";
import { createServices, type Services } from "./services/index.js";

/**
 * Everything a service or route needs, built once in main.ts (or a test harness) and passed
 * down. Tests swap the clock or the config here; nothing is a module-level singleton.
 */
export interface AppContext {
  config: Config;
  db: DbHandle;
  clock: Clock;
  log: Logger;
  metrics: Registry;
  readiness: Readiness;
  services: Services;
}

/** The context of one process: its service bag built from the parts (main.ts, harnesses, benches). */
export const createAppContext = (parts: Omit<AppContext, "services">): AppContext => ({ ...parts, services: createServices(parts) });

/**
 * Liveness: /healthz answers 200 only once migrations ran and every role of this process
 * started. /readyz (src/http/readiness.ts) adds the database, data ages and the facilitator.
 */
export class Readiness {
  private migrated = false;
  private readonly pending = new Set<string>();
  private readonly started = new Set<string>();
  /** When migrations ran (on the context's clock): /readyz's start grace counts from here. */
  startedAt: Date | undefined;
  /** Asks the payment facilitator's /supported; set by the api role (it holds the rail). */
  facilitator: (() => Promise<unknown>) | undefined;

  expectRoles(roles: readonly string[]): void {
    for (const r of roles) this.pending.add(r);
  }
  markMigrated(at: Date = new Date()): void {
    this.migrated = true;
    this.startedAt = at;
  }
  markStarted(role: string): void {
    this.pending.delete(role);
    this.started.add(role);
  }
  get ready(): boolean {
    return this.migrated && this.pending.size === 0;
  }
  snapshot() {
    return { migrated: this.migrated, started: [...this.started], pending: [...this.pending] };
  }
}
