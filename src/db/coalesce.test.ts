import { describe, expect, it } from "vitest";
import { coalesce } from "./coalesce.js";

/** Records what happens, in order: each batch `run` gets and each marker the test sets. */
function recorder() {
  const events: string[] = [];
  const run = async (keys: readonly number[]) => {
    events.push(`batch ${keys.join(",")}`);
    return keys.map((k) => (k < 0 ? new Error(`bad ${k}`) : k * 10));
  };
  return { events, run };
}

describe("coalesce", () => {
  it("answers the calls of one turn with one batch, sent when the turn ends", async () => {
    const { events, run } = recorder();
    const load = coalesce(run);
    const answers = Promise.all([load(1), load(2), load(2)]);
    await Promise.resolve();
    events.push("microtasks done");
    expect(await answers).toEqual([10, 20, 20]);
    expect(events).toEqual(["microtasks done", "batch 1,2,2"]);
  });

  it("sends a full batch at once and the turn's later calls in the next", async () => {
    const { events, run } = recorder();
    const load = coalesce(run, { maxBatch: 2 });
    setImmediate(() => events.push("turn ends"));
    const answers = Promise.all([1, 2, 3, 4, 5].map((k) => load(k)));
    expect(await answers).toEqual([10, 20, 30, 40, 50]);
    // The two full batches go before the end of the turn (a setImmediate queued before any call); the partial one after.
    expect(events).toEqual(["batch 1,2", "batch 3,4", "turn ends", "batch 5"]);
  });

  it("fails only the call whose result is an Error, and a failed statement fails its whole batch", async () => {
    const { run } = recorder();
    const load = coalesce(run);
    const settled = await Promise.allSettled([load(1), load(-1), load(3)]);
    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const failing = coalesce<number, number>(async () => {
      throw new Error("connection lost");
    });
    const both = await Promise.allSettled([failing(1), failing(2)]);
    expect(both.map((s) => (s.status === "rejected" ? (s.reason as Error).message : "ok"))).toEqual(["connection lost", "connection lost"]);
  });
});
