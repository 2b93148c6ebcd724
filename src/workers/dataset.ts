import { randomUUID } from "node:crypto";
import type { AppContext } from "../context.js";
import { DATASET } from "../services/dataset/constants.js";
import { buildIfDue } from "../services/dataset/scheduler.js";
import { startPeriodic, type Periodic } from "./periodic.js";

/** The weekly snapshot as a periodic task: checks every hour, builds when a week has passed. */
export function startDatasetScheduler(ctx: Pick<AppContext, "db" | "clock" | "log" | "config">, intervalMs: number = DATASET.checkEveryMs): Periodic {
  const owner = randomUUID();
  const deps = { db: ctx.db.db, clock: ctx.clock, log: ctx.log, dataDir: ctx.config.dataDir, publicBaseUrl: ctx.config.publicBaseUrl };
  return startPeriodic("dataset", intervalMs, async () => void (await buildIfDue(deps, owner)), ctx.log);
}
