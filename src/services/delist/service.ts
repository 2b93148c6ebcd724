import type { DbHandle } from "../../db/client.js";
import type { Clock } from "../../lib/clock.js";
import type { DelistScope } from "./constants.js";
import { delistDiff, delistSnapshot } from "./feed.js";
import { recordDailyFlags } from "./record-flags.js";

export interface DelistDeps {
  db: DbHandle;
  clock: Clock;
}

/** The delist feed as its routes use it, and the daily flag history it is built from; "now" is the service's clock. */
export function createDelistService({ db, clock }: DelistDeps) {
  const deps = { db, clock };
  return {
    snapshot: (opts: { scope: DelistScope; limit: number }) => delistSnapshot(deps, opts),
    diff: (opts: { since: Date; scope: DelistScope; limit: number }) => delistDiff(deps, opts),
    /** Writes today's flags (first run of the day) or tops them up (later runs). */
    recordFlags: () => recordDailyFlags(deps),
  };
}

export type DelistService = ReturnType<typeof createDelistService>;
