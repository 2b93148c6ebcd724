import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

/** Removals older than this cannot be asked for (whats-new refuses a since older than 30 days). */
const REMOVED_HORIZON_MS = 31 * 86_400_000;

/** Times (epoch ms) sorted newest first, with the listing of each. */
interface Lane {
  at: Float64Array;
  ids: Float64Array;
}

/**
 * The catalog's additions and removals as sorted arrays, so whats-new counts any window with a
 * binary search instead of counting rows: a poll stamps all it adds with one first_seen_at, so
 * a day's window can hold tens of thousands of listings. About 16 bytes a listing.
 */
export class CatalogTimeline {
  private constructor(
    /** Active listings by first_seen_at, newest first, then URL. */
    readonly added: Lane,
    /** Inactive listings by deactivated_at (last 31 days), newest first, then URL. */
    readonly removed: Lane,
    /** first_seen_at of each service with an active listing, newest first. */
    private readonly liveServiceSince: Float64Array,
    /** Latest deactivated_at of each service with no active listing left, newest first. */
    private readonly goneServiceAt: Float64Array,
    readonly activeEndpoints: number,
    readonly activeServices: number,
  ) {}

  static async load(db: Kysely<Database>, now: Date): Promise<CatalogTimeline> {
    const horizon = new Date(now.getTime() - REMOVED_HORIZON_MS).toISOString();
    const [added, removed, live, gone] = await Promise.all([
      sql<{ id: number; at: Date }>`
        select id, first_seen_at as at from listings where is_active order by first_seen_at desc, url_normalized`.execute(db),
      sql<{ id: number; at: Date }>`
        select id, deactivated_at as at from listings where not is_active and deactivated_at >= ${horizon}::timestamptz
        order by deactivated_at desc, url_normalized`.execute(db),
      sql<{ at: Date }>`
        select s.first_seen_at as at from services s
        where exists (select 1 from listings l where l.service_id = s.service_id and l.is_active) order by 1 desc`.execute(db),
      sql<{ at: Date }>`
        select max(deactivated_at) as at from listings where not is_active and deactivated_at >= ${horizon}::timestamptz group by service_id
        having not exists (select 1 from listings a where a.service_id = listings.service_id and a.is_active) order by 1 desc`.execute(db),
    ]);
    const lane = (rows: Array<{ id: number; at: Date }>): Lane => ({
      at: Float64Array.from(rows, (r) => r.at.getTime()),
      ids: Float64Array.from(rows, (r) => Number(r.id)),
    });
    const times = (rows: Array<{ at: Date }>) => Float64Array.from(rows, (r) => r.at.getTime());
    return new CatalogTimeline(lane(added.rows), lane(removed.rows), times(live.rows), times(gone.rows), added.rows.length, live.rows.length);
  }

  /** Counts and the first `limit` listing ids of each list, for a window starting at `since`. */
  window(since: Date, limit: number) {
    const from = since.getTime();
    const addedCount = atOrAfter(this.added.at, from);
    const removedCount = atOrAfter(this.removed.at, from);
    return {
      addedCount,
      removedCount,
      addedServices: atOrAfter(this.liveServiceSince, from),
      removedServices: atOrAfter(this.goneServiceAt, from),
      addedIds: Array.from(this.added.ids.subarray(0, Math.min(addedCount, limit))),
      removedIds: Array.from(this.removed.ids.subarray(0, Math.min(removedCount, limit))),
    };
  }
}

/** How many leading entries of a newest-first array are at or after `from`. */
function atOrAfter(desc: Float64Array, from: number): number {
  let lo = 0;
  let hi = desc.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (desc[mid]! >= from) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
