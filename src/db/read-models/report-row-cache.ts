import { REPORT_ROWS_CHANNEL } from "../client.js";
import type { Notifications } from "../notifications.js";

/** The rows of one match key as the reports read them: the key and the listing ids (what the change feed names). */
export interface CachedRow {
  key: string;
  ids: ReadonlyArray<string | number>;
}

export interface ReportRowCache<R extends CachedRow = CachedRow> {
  /** The rows `lookup` gives for a match key, from memory when it holds them. */
  get(key: string): Promise<R | undefined>;
  /** Subscribes to the change feed if not yet done; resolves once it is heard (rows are kept from then on), or rejects if it could not be. */
  readonly ready: Promise<void>;
  /** Reads the active catalog's rows, a page a statement, until all are kept or the cache is full. */
  warm(): Promise<void>;
  readonly size: number;
}

/** Listing ids remembered while reads are in flight; past this, reads then in flight are not kept. */
const NAMED_MAX = 100_000;
/** Rows a warming statement reads. */
export const WARM_PAGE = 2_000;

/**
 * The catalog's report rows, kept in this process as they are read and dropped as soon as the
 * database says they changed (docs/decisions/0012-report-rows-cached-per-process.md): the
 * preflight routes then answer a catalogued URL without a round trip for its row.
 *
 * Triggers notify channel `report_rows` with the ids of the listings whose row a committed
 * statement changed (migration 0012). Correct across processes because:
 * - a row is kept only while the feed is heard: a dropped listening connection empties the
 *   cache and nothing is kept until it listens again;
 * - a row whose listing was named while it was being read is answered but not kept: the read
 *   may predate the change the notification announces;
 * - the process's own writes notify on their own pooled connection before their result, so it
 *   reads its own writes at once; another process's within the notification's delay.
 * At most `maxRows` rows are kept (the oldest go first); 0 turns the cache off.
 */
export function createReportRowCache<R extends CachedRow>(o: {
  lookup: (key: string) => Promise<R | undefined>;
  /** The active catalog's keys with their rows (what `lookup` gives), in key order after `after`. */
  scan: (after: string | undefined, limit: number) => Promise<R[]>;
  notifications: Notifications;
  maxRows: number;
}): ReportRowCache<R> {
  const rows = new Map<string, R>(); // insertion order: the oldest first
  const keyById = new Map<string, string>();
  let live = false;
  /** Counts notifications; a read remembers the count it started at. */
  let epoch = 0;
  /** Reads started before this count are not kept (the feed was lost, re-heard or said '*'). */
  let floor = 0;
  /** While reads are in flight: the count at which each listing id was last named. */
  const namedAt = new Map<string, number>();
  let reading = 0;

  const drop = (key: string) => {
    const row = rows.get(key);
    if (!row) return;
    rows.delete(key);
    for (const id of row.ids) keyById.delete(String(id));
  };
  const forgetAll = () => {
    floor = ++epoch;
    rows.clear();
    keyById.clear();
    namedAt.clear();
  };
  /** Reads of `fn` started at `start`; their rows may be kept if `mayKeep` says so. */
  const reads = async <T>(fn: (mayKeep: (row: R) => boolean) => Promise<T>): Promise<T> => {
    const start = epoch;
    reading++;
    try {
      return await fn((row) => live && start >= floor && row.ids.every((id) => (namedAt.get(String(id)) ?? start) <= start));
    } finally {
      if (--reading === 0) namedAt.clear();
    }
  };
  const keep = (key: string, row: R) => {
    drop(key);
    if (rows.size >= o.maxRows) drop(rows.keys().next().value!);
    rows.set(key, row);
    for (const id of row.ids) keyById.set(String(id), key);
  };

  const listener = {
    message(payload: string) {
      if (payload === "*") return forgetAll();
      epoch++;
      for (const id of payload.split(",")) {
        const key = keyById.get(id);
        if (key !== undefined) drop(key);
        if (reading > 0) namedAt.set(id, epoch);
      }
      if (namedAt.size > NAMED_MAX) {
        namedAt.clear();
        floor = epoch;
      }
    },
    lost() {
      live = false;
      forgetAll();
    },
    ready() {
      forgetAll();
      live = true;
    },
  };
  // Subscribed on first use, so a process that never reads reports (a prober) holds no listening connection.
  let subscribed: Promise<void> | undefined;
  const subscribe = () => {
    if (!subscribed) {
      subscribed = o.maxRows > 0 ? o.notifications.listen(REPORT_ROWS_CHANNEL, listener).then(() => undefined) : Promise.resolve();
      // A feed that cannot be heard leaves the cache off (every read goes to the database) until it can.
      subscribed.catch(() => undefined);
    }
    return subscribed;
  };

  return {
    async get(key) {
      const hit = rows.get(key);
      if (hit) return hit;
      void subscribe();
      return reads(async (mayKeep) => {
        const row = await o.lookup(key);
        if (row && mayKeep(row)) keep(key, row);
        return row;
      });
    },
    async warm() {
      await subscribe();
      let after: string | undefined;
      while (live && rows.size < o.maxRows) {
        const page = await reads(async (mayKeep) => {
          const page = await o.scan(after, WARM_PAGE);
          for (const row of page) {
            if (rows.size >= o.maxRows) break;
            if (!rows.has(row.key) && mayKeep(row)) keep(row.key, row);
          }
          return page;
        });
        if (page.length < WARM_PAGE) return;
        after = page[page.length - 1]!.key;
      }
    },
    get ready() {
      return subscribe();
    },
    get size() {
      return rows.size;
    },
  };
}
