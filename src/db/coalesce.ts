import DataLoader from "dataloader";

/** The most calls one coalesced statement serves; more wait for the next one. */
export const COALESCE_MAX_BATCH = 100;

/**
 * Coalesces concurrent calls into one statement: every call made during one turn of the event
 * loop (all the requests the server read in that turn) joins one batch, which `run` answers
 * with one database round trip instead of one per call. Under load that divides the per-call
 * cost of the hot path's statements (a network write, a wake-up of the database backend, a
 * parse of the result) by the batch size; an idle service pays one setImmediate of delay.
 *
 * `run` gets the keys in call order, repeats included, and returns one result per key in the
 * same order (an Error there fails only that call). Nothing is cached: each call is answered by
 * the statement of its own turn. Built on DataLoader, with a turn (not a tick) per batch.
 */
export function coalesce<K, V>(run: (keys: readonly K[]) => Promise<ReadonlyArray<V | Error>>): (key: K) => Promise<V> {
  const loader = new DataLoader<K, V>(run, { cache: false, maxBatchSize: COALESCE_MAX_BATCH, batchScheduleFn: (dispatch) => setImmediate(dispatch) });
  return (key) => loader.load(key);
}
