import type { Kysely } from "kysely";
import type { Registry } from "prom-client";
import type { Database } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import type { Logger } from "../../lib/log.js";
import { refreshDeliverySummaries } from "../delivery/index.js";
import { updateVerdicts } from "../evidence/index.js";
import { DAY, HOUR } from "../signals/constants.js";
import { indexStep, type IndexLimits, type StepResult } from "./index-step.js";
import type { LogSource } from "./log-source.js";
import { indexMetrics } from "./metrics.js";
import { refreshSettlementSummaries } from "./refresh-summaries.js";

/** Re-read at every step: a reorganisation among these blocks replaces what they held. */
export const REREAD_BLOCKS = 12n;
/** Ranges read per step, so one step's requests and rows stay bounded. */
export const MAX_RANGES_PER_STEP = 20;
/** How far back a new payTo is read: the summaries' longest window. */
export const BACKFILL_MS = 30 * DAY;
/** Summaries are recomputed at least this often, so windows age with no new settlement. */
export const SUMMARY_REFRESH_MS = 60_000;
/** Known facilitators' signers are asked again after this long. */
const SIGNERS_TTL_MS = 60 * 60_000;

export interface ChainIndexerDeps {
  db: Kysely<Database>;
  clock: Clock;
  log: Logger;
  source: LogSource;
  network: string;
  /** Blocks behind the head not read yet, and blocks per eth_getLogs range. */
  limits: Pick<IndexLimits, "confirmations" | "rangeBlocks" | "maxRowsPerWrite">;
  /** The signer addresses known facilitators declare (their /supported), for `network`. */
  knownSigners: () => Promise<string[]>;
  /** This service's own paying wallets (the paid checker's): their payments are not use. */
  ownWallets: readonly string[];
  ghostListedHours: number;
  /** Where the lag and counters are registered (/metrics); absent: none. */
  metrics?: Registry;
}

/**
 * The chain indexer (decision 0052): each tick reads the next block ranges for every known payTo
 * and, when something was read or a minute passed, recomputes the listings' settlement summaries
 * and their verdicts.
 */
export function createChainIndexer(deps: ChainIndexerDeps) {
  const { db, clock, log } = deps;
  const limits: IndexLimits = { ...deps.limits, rereadBlocks: REREAD_BLOCKS, maxRanges: MAX_RANGES_PER_STEP, backfillMs: BACKFILL_MS };
  const metrics = deps.metrics ? indexMetrics(deps.metrics) : null;
  let summarizedAt = 0;
  let signers: { list: string[]; at: number } | null = null;

  async function knownSigners(now: number): Promise<string[]> {
    if (signers && now - signers.at < SIGNERS_TTL_MS) return signers.list;
    try {
      signers = { list: await deps.knownSigners(), at: now };
    } catch (err) {
      log.warn({ err }, "reading the facilitator's signers failed; known_facilitator_share counts none until it answers");
      signers = { list: signers?.list ?? [], at: now - SIGNERS_TTL_MS + 60_000 };
    }
    return signers.list;
  }

  // Payers' votes count 7 days: the listings they speak of are recounted with the summaries.
  async function agePayerReports(now: Date): Promise<number[]> {
    const rows = await db
      .selectFrom("outcome_reports")
      .select("listing_id")
      .distinct()
      .where("accepted_at", ">", new Date(now.getTime() - 31 * DAY))
      .execute();
    const ids = rows
      .map((r) => r.listing_id)
      .filter((id): id is number => id !== null)
      .map(Number);
    await refreshDeliverySummaries(db, ids, now);
    return ids;
  }

  return {
    async tick(): Promise<StepResult & { summaries: number }> {
      const now = clock.now();
      const step = await indexStep(db, deps.source, deps.network, limits, now);
      metrics?.lag.set(Number(step.lag));
      metrics?.ranges.inc(step.ranges);
      metrics?.settlements.inc(step.settlements);
      if (step.ranges === 0 && now.getTime() - summarizedAt < SUMMARY_REFRESH_MS) return { ...step, summaries: 0 };
      summarizedAt = now.getTime();
      const changed = await refreshSettlementSummaries(db, {
        network: deps.network,
        signers: await knownSigners(now.getTime()),
        ownWallets: deps.ownWallets.map((w) => w.toLowerCase()),
        ghostListedMs: deps.ghostListedHours * HOUR,
        caughtUpBlock: step.head - limits.rangeBlocks,
        now,
      });
      const reported = await agePayerReports(now);
      const touched = [...new Set([...changed, ...reported])];
      if (touched.length > 0) await updateVerdicts({ db }, touched, now);
      return { ...step, summaries: changed.length };
    },
  };
}

export type ChainIndexer = ReturnType<typeof createChainIndexer>;
