import DataLoader from "dataloader";

/** The most calls one coalesced statement serves unless its caller sets its own maximum. */
const COALESCE_MAX_BATCH = 100;

/**
 * Coalesces concurrent calls into one statement: every call made during one turn of the event
 * loop (all the requests the server read in that turn) joins one batch, which `run` answers
 * with one database round trip instead of one per call. Under load that divides the per-call
 * cost of the hot path's statements (a network write, a wake-up of the database backend, a
 * parse of the result) by the batch size; an idle service pays one setImmediate of delay.
 *
 * A batch that reaches `maxBatch` calls is sent at once (in a microtask) instead of at the end
 * of the turn, and the turn's later calls start the next batch: the first statement is then
 * on its way while the process still reads and prepares the rest of the turn's requests. A
 * statement whose per-call work in the database is large (the trial's) gains from a small
 * maximum, which keeps several statements in flight; a cheap one gains from a large batch.
 *
 * `run` gets the keys in call order, repeats included, and returns one result per key in the
 * same order (an Error there fails only that call). Nothing is cached: each call is answered by
 * the statement of its own batch. Built on DataLoader, with a turn (not a tick) per batch.
 */
export function coalesce<K, V>(
  run: (keys: readonly K[]) => Promise<ReadonlyArray<V | Error>>,
  { maxBatch = COALESCE_MAX_BATCH }: { maxBatch?: number } = {},
): (key: K) => Promise<V> {
  // The dispatch of the batch now filling. DataLoader schedules a new batch only when the one
  // before it is full, so a batch scheduled while this one is undispatched means it is full.
  let filling: (() => void) | undefined;
  const loader = new DataLoader<K, V>(run, {
    cache: false,
    maxBatchSize: maxBatch,
    batchScheduleFn: (dispatch) => {
      let sent = false;
      const send = () => {
        if (sent) return;
        sent = true;
        if (filling === send) filling = undefined;
        dispatch();
      };
      if (filling) queueMicrotask(filling);
      filling = send;
      setImmediate(send);
    },
  });
  return (key) => loader.load(key);
}
