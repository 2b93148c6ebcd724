import type { DbHandle } from "../../db/client.js";
import { createTrialCounts } from "../../db/read-models/trial-counts.js";
import type { SignedPreflightReport as PreflightReport } from "@x402-lookout/contracts/preflight/schemas";
import { QuotaExceeded } from "../errors.js";
import { TRIAL } from "../signals/constants.js";

const DAY_MS = 86_400_000;

/**
 * The most trial calls one counting statement serves. The statement's work in the database grows
 * with its calls (two counter upserts and a cached answer each), so a full batch is sent at once
 * and the turn's later calls go in the next one: the database counts the first while the process
 * still reads the rest (decision 0009, amendment of session 10, has the figures).
 */
export const TRIAL_BATCH_MAX = 8;

/** Seconds until the next UTC midnight, when every trial quota resets. */
export function nextUtcMidnight(now: Date): Date {
  return new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS);
}

export class TrialLimitExceeded extends QuotaExceeded {
  constructor(scope: "ip" | "host", limit: number, now: Date) {
    super(
      scope,
      limit,
      nextUtcMidnight(now),
      now,
      scope === "ip"
        ? `free trial limit reached: ${limit} calls per client IP per UTC day; pay per call with POST /api/v1/preflight, or retry after the reset`
        : `free trial limit reached for this target host: ${limit} calls per host per UTC day; pay per call with POST /api/v1/preflight, or retry after the reset`,
    );
    this.name = "TrialLimitExceeded";
  }
}

export interface TrialCall {
  ip: string;
  host: string;
  urlNormalized: string;
  /**
   * The answer this call would give if the URL has no cached one: stored as the URL's cached
   * answer by the counting statement itself when the call is let through. Left out when the
   * answer costs more than a lookup (an unknown URL's live probe): the caller then answers a
   * miss and stores its answer afterwards.
   */
  offer?: PreflightReport;
}

/** The verdict an answer states: a cached answer is served only while the stored verdict still says the same. */
const verdictOf = (r: PreflightReport) => JSON.stringify([r.ok, r.recommended_action, r.warnings]);

/**
 * Counts trial calls against the caller's IP and the target host for their UTC day, in the
 * database so every API process agrees (createTrialCounts): the calls of one event-loop turn
 * share one statement, up to `batchMax` of them, and are judged as if they had come one after
 * another in call order. A call refused for the IP's limit never touches the host's count, so
 * one client cannot use up a host's trial for everyone; a call refused for the host's limit
 * still counts against its IP. Resolves with the URL's cached answer (the offer, once stored),
 * undefined on a miss; rejects with TrialLimitExceeded.
 */
export function createTrialQuota(
  handle: Pick<DbHandle, "db" | "prepared">,
  { batchMax = TRIAL_BATCH_MAX }: { batchMax?: number } = {},
): (call: TrialCall, now: Date) => Promise<PreflightReport | undefined> {
  const count = createTrialCounts<PreflightReport>(handle, {
    perIpPerDay: TRIAL.perIpPerDay,
    perHostPerDay: TRIAL.perHostPerDay,
    cacheSeconds: TRIAL.cacheSeconds,
    batchMax,
  });
  return async (call, now) => {
    const counted = await count({ ...call, at: now, verdict: call.offer && verdictOf(call.offer) });
    if (counted.refusedBy) throw new TrialLimitExceeded(counted.refusedBy, counted.refusedBy === "ip" ? TRIAL.perIpPerDay : TRIAL.perHostPerDay, now);
    return counted.answer;
  };
}
