import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { LogSource, TransferLog } from "./log-source.js";
import type { ReadRange } from "./plan.js";
import { settlementsIn } from "./read-range.js";
import { writeRange } from "./write-range.js";

/** Settlements held in memory and written at once, at most: a busier range is written in halves. */
export const MAX_ROWS_PER_WRITE = 5000;

/**
 * Writes a range's settlements, halving it while it holds more than `max` transfers:
 * each half is written with its own cursor move (the upper half's from the lower's end), so memory
 * stays bounded by a half's rows whatever one range of a busy chain holds.
 */
export async function writeInParts(
  db: Kysely<Database>,
  source: LogSource,
  network: string,
  range: ReadRange,
  transfers: readonly TransferLog[],
  max: number,
): Promise<number> {
  if (transfers.length > max && range.from < range.to) {
    const half = range.from + (range.to - range.from) / 2n;
    // Split above the cursor, so no half moves it back.
    const mid = half < range.syncedTo && range.syncedTo < range.to ? range.syncedTo : half;
    const low = await writeInParts(
      db,
      source,
      network,
      { ...range, to: mid },
      transfers.filter((t) => t.blockNumber <= mid),
      max,
    );
    return (
      low +
      (await writeInParts(
        db,
        source,
        network,
        { ...range, from: mid + 1n, syncedTo: mid },
        transfers.filter((t) => t.blockNumber > mid),
        max,
      ))
    );
  }
  return writeRange(db, network, range, await settlementsIn(source, range, transfers));
}
