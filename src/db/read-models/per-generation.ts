import type { VerdictGenerations } from "./verdict-generation.js";

/** How long the call that starts a rebuild waits for it before it is answered from the previous value. */
export const REBUILD_WAIT_MS = 1_000;

/**
 * A value derived from the verdicts, rebuilt when the generation (`handle.generation`) moves on.
 * The call that finds a new generation starts the rebuild and waits for it up to waitMs; calls
 * meanwhile get the previous value (it is at most one recompute old), or wait when there is none
 * yet. Concurrent callers share one rebuild; a failed one is retried by the next call, and the
 * previous value keeps answering.
 */
export function perGeneration<T>(handle: { generation: Pick<VerdictGenerations, "current"> }, build: () => Promise<T>, waitMs = REBUILD_WAIT_MS) {
  let ready: { generation: number; value: T } | undefined;
  let building: { generation: number; promise: Promise<T> } | undefined;
  const previous = () => ready!.value;

  return async (): Promise<T> => {
    const { generation } = await handle.generation.current();
    if (ready?.generation === generation) return ready.value;
    if (building?.generation === generation) return ready ? ready.value : building.promise;

    const promise = build().then((value) => {
      if (!ready || ready.generation < generation) ready = { generation, value };
      return value;
    });
    building = { generation, promise };
    void promise.then(
      () => (building?.promise === promise ? (building = undefined) : undefined),
      () => (building?.promise === promise ? (building = undefined) : undefined),
    );
    if (!ready) return promise;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<T>((resolve) => (timer = setTimeout(() => resolve(previous()), waitMs)));
    try {
      return await Promise.race([promise.catch(previous), waited]);
    } finally {
      clearTimeout(timer);
    }
  };
}
