import { SNAPSHOT_LIMITS } from "@x402-lookout/contracts/snapshot/limits";
import type { VerdictDeltas, VerdictSnapshot } from "@x402-lookout/contracts/snapshot/schemas";
import type { DbHandle } from "../../db/client.js";
import type { Clock } from "../../lib/clock.js";
import { InvalidInput } from "../errors.js";
import type { JwsSigner } from "../verdict-signing/index.js";
import { deltasAnswer, snapshotAnswer } from "./answer.js";
import { lockedRead, readDeltas, readSnapshot, sinceBounds } from "./read.js";

const HOUR = 3_600_000;

export const TAKE_A_SNAPSHOT = "take a new snapshot with POST /api/v1/verdict-snapshot, then poll the deltas since its seq";

export interface VerdictFeedDeps {
  db: Pick<DbHandle, "db">;
  clock: Clock;
  /** Signs the answers with the verdicts' key. */
  sign: JwsSigner;
  /** The issuer the claims name: the service's public base URL. */
  issuer: string;
  /** Rows per deltas answer (SNAPSHOT_LIMITS.deltaMaxEntries; tests page with fewer). */
  maxEntries?: number;
  /** How long a read may wait for the writers in flight and run (a timeout answers 503). */
  readTimeoutMs?: number;
}

/**
 * The offline guard's feed (docs/offline-guard.md, decision 0022): every active listing's entry at
 * one sequence number, or the changes since one, signed with the verdicts' key.
 */
export function createVerdictFeedService({ db: handle, clock, sign, ...opts }: VerdictFeedDeps) {
  const max = opts.maxEntries ?? SNAPSHOT_LIMITS.deltaMaxEntries;
  const timeout = opts.readTimeoutMs ?? 10_000;
  return {
    async snapshot(now: Date = clock.now()): Promise<VerdictSnapshot> {
      const read = await lockedRead(handle.db, timeout, readSnapshot);
      return snapshotAnswer(sign, opts.issuer, read, now);
    },
    async deltas(since: number, now: Date = clock.now()): Promise<VerdictDeltas> {
      const read = await lockedRead(handle.db, timeout, (tx) => readDeltas(tx, since, max));
      return deltasAnswer(sign, opts.issuer, { since, max, now }, read);
    },
    /** Throws InvalidInput when deltas since `since` cannot be answered in full: checked before payment. */
    async checkSince(since: number, now: Date = clock.now()): Promise<void> {
      const b = await sinceBounds(handle.db, since);
      if (since > b.current) throw new InvalidInput("since", `since ${since} is above the current sequence number ${b.current}: ${TAKE_A_SNAPSHOT}`);
      const windowStart = now.getTime() - SNAPSHOT_LIMITS.deltaWindowHours * HOUR;
      if (since < b.forgotten || (b.nextChangeAt !== null && b.nextChangeAt.getTime() < windowStart)) {
        throw new InvalidInput("since", `since ${since} is older than the ${SNAPSHOT_LIMITS.deltaWindowHours}-hour deltas window: ${TAKE_A_SNAPSHOT}`);
      }
    },
  };
}

export type VerdictFeedService = ReturnType<typeof createVerdictFeedService>;
