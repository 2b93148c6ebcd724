import type { DbHandle } from "../../db/client.js";
import type { Clock } from "../../lib/clock.js";
import { readOverview, type OverviewFigures } from "./figures.js";

export type { OverviewFigures } from "./figures.js";

/**
 * How old the landing page's figures may be (issue 35 item 7, decision 0040). Past `freshMs`
 * a view is answered from the last figures while one refresh runs; past `maxAgeMs` a view waits
 * for new ones, so no answer carries figures older than that, however long since the last view.
 */
export const OVERVIEW_AGE = { freshMs: 15_000, maxAgeMs: 30_000 } as const;

export interface OverviewDeps {
  db: Pick<DbHandle, "db">;
  clock: Clock;
  /** Past these ages the figures are refreshed (default OVERVIEW_AGE; benches shorten them). */
  freshMs?: number;
  maxAgeMs?: number;
}

/**
 * The landing page's live figures. Counting every stored verdict's warnings takes tens of
 * milliseconds at 100,000 listings, so one read serves every view while fresh.
 */
export function createOverviewService({ db: handle, clock, freshMs = OVERVIEW_AGE.freshMs, maxAgeMs = OVERVIEW_AGE.maxAgeMs }: OverviewDeps) {
  let last: OverviewFigures | undefined;
  let pending: Promise<OverviewFigures> | undefined;

  const refresh = (): Promise<OverviewFigures> =>
    (pending ??= readOverview(handle.db, clock.now())
      .then((figures) => (last = figures))
      .finally(() => (pending = undefined)));

  return {
    async figures(): Promise<OverviewFigures> {
      const age = last ? clock.now().getTime() - last.at.getTime() : Infinity;
      // Too old to show: wait (a failed read fails this view rather than show old figures).
      if (!last || age >= maxAgeMs) return refresh();
      // A failed background refresh keeps the last figures; the next view tries again.
      if (age >= freshMs) refresh().catch(() => undefined);
      return last;
    },
  };
}

export type OverviewService = ReturnType<typeof createOverviewService>;
