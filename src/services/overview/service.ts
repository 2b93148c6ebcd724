import type { DbHandle } from "../../db/client.js";
import type { Clock } from "../../lib/clock.js";
import { readOverview, type OverviewFigures } from "./figures.js";

export type { OverviewFigures } from "./figures.js";

/** As long as the landing page's own Cache-Control (src/http/explorer/cache.ts) lets a browser keep it. */
export const OVERVIEW_MAX_AGE_MS = 15_000;

/**
 * The landing page's live figures. Counting every stored verdict's warnings takes tens of
 * milliseconds at 100,000 listings, so one read serves every view for `maxAgeMs`; past it the
 * last figures are served while one refresh runs, and only the very first view waits.
 */
export function createOverviewService(handle: Pick<DbHandle, "db">, clock: Clock, { maxAgeMs = OVERVIEW_MAX_AGE_MS } = {}) {
  let last: OverviewFigures | undefined;
  let pending: Promise<OverviewFigures> | undefined;

  const refresh = (): Promise<OverviewFigures> =>
    (pending ??= readOverview(handle.db, clock.now())
      .then((figures) => (last = figures))
      .finally(() => (pending = undefined)));

  return {
    async figures(): Promise<OverviewFigures> {
      if (!last) return refresh();
      // A failed refresh keeps the last figures; the next view past maxAgeMs tries again.
      if (clock.now().getTime() - last.at.getTime() >= maxAgeMs) refresh().catch(() => undefined);
      return last;
    },
  };
}

export type OverviewService = ReturnType<typeof createOverviewService>;
