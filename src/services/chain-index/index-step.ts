import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { LogSource } from "./log-source.js";
import { addNewPayees, hasUnstarted, payeeGroups, startBackfills } from "./payees.js";
import { planReads, type PlanLimits } from "./plan.js";
import { MAX_ROWS_PER_WRITE, writeInParts } from "./write-in-parts.js";

export interface IndexLimits extends PlanLimits {
  /** Blocks behind the head that are not read yet. */
  confirmations: bigint;
  /** How far back a new payTo is read. */
  backfillMs: number;
  /** Settlements written at once, at most (default MAX_ROWS_PER_WRITE). */
  maxRowsPerWrite?: number;
}

export interface StepResult {
  head: bigint;
  ranges: number;
  settlements: number;
  /** Blocks between the head (at confirmation depth) and the payTo read least far. */
  lag: bigint;
}

/**
 * One step of the indexer: new payTos join, each group's next range is read (reads first, outside
 * any transaction), then each range is written on its own. Nothing here holds a lock while the
 * chain answers; writeRange's cursor check keeps concurrent indexers from counting twice.
 */
export async function indexStep(db: Kysely<Database>, source: LogSource, network: string, limits: IndexLimits, now: Date): Promise<StepResult> {
  const latest = await source.head();
  const head = latest > limits.confirmations ? latest - limits.confirmations : 0n;
  await addNewPayees(db, network, now);
  if (await hasUnstarted(db, network)) {
    const from = await source.blockAt(Math.floor((now.getTime() - limits.backfillMs) / 1000));
    await startBackfills(db, network, from > head ? head : from);
  }
  const groups = await payeeGroups(db, network);
  const reads = planReads(groups, head, limits);
  let settlements = 0;
  for (const range of reads)
    settlements += await writeInParts(
      db,
      source,
      network,
      range,
      await source.transfers(range.from, range.to, range.payTos),
      limits.maxRowsPerWrite ?? MAX_ROWS_PER_WRITE,
    );
  const after = await payeeGroups(db, network);
  const lowest = after.reduce<bigint | null>((m, g) => (m === null || g.syncedTo < m ? g.syncedTo : m), null);
  return { head, ranges: reads.length, settlements, lag: lowest === null || lowest >= head ? 0n : head - lowest };
}
