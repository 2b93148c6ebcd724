import type { DbHandle } from "../../db/client.js";
import { createTrialCounts } from "../../db/read-models/trial-counts.js";
import type { SignedPreflightReport as PreflightReport } from "@x402-lookout/contracts/preflight/schemas";
import { QuotaExceeded } from "../errors.js";
import { TRIAL } from "../signals/constants.js";
import { clientNetwork } from "./client-network.js";

const DAY_MS = 86_400_000;

/**
 * The most trial calls one counting statement serves. The statement's work in the database grows
 * with its calls (two counter upserts and a cached answer each), so a full batch is sent at once
 * and the turn's later calls go in the next one: the database counts the first while the process
 * still reads the rest (decision 0009, amendment of session 10, has the figures).
 */
export const TRIAL_BATCH_MAX = 8;

/**
 * A target host's trial calls one client network (/24, /48) may make per UTC day: a tenth of the
 * host's 50 (/spec#preflight-trial), so using up a host for everyone takes ten networks, not five addresses
 * (decision 0027).
 */
export const HOST_CALLS_PER_NETWORK = 5;

/** Seconds until the next UTC midnight, when every trial quota resets. */
export function nextUtcMidnight(now: Date): Date {
  return new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS);
}

const REFUSALS = {
  ip: { limit: TRIAL.perIpPerDay, text: `${TRIAL.perIpPerDay} calls per client IP per UTC day` },
  host: { limit: TRIAL.perHostPerDay, text: `${TRIAL.perHostPerDay} calls per target host per UTC day` },
  host_network: { limit: HOST_CALLS_PER_NETWORK, text: `${HOST_CALLS_PER_NETWORK} calls to one target host per client network (/24, /48) per UTC day` },
};

export class TrialLimitExceeded extends QuotaExceeded {
  constructor(scope: keyof typeof REFUSALS, now: Date) {
    const { limit, text } = REFUSALS[scope];
    super(scope, limit, nextUtcMidnight(now), now, `free trial limit reached: ${text}; pay per call with POST /api/v1/preflight, or retry after the reset`);
    this.name = "TrialLimitExceeded";
  }
}

export interface TrialCall {
  ip: string;
  host: string;
  urlNormalized: string;
  /** False for an answer bound to the caller's quote: never served from the cache, always counted. */
  cacheable?: boolean;
  /**
   * The answer this call would give if the URL has no cached one: stored as the URL's cached
   * answer by the counting statement itself when the call is let through. Left out when the
   * answer costs more than a lookup (an unknown URL's live probe): the caller then answers a
   * miss and stores its answer afterwards.
   */
  offer?: PreflightReport;
}

/** The verdict an answer states: a cached answer is served only while the stored verdict still says the same. */
const verdictOf = (r: PreflightReport) => JSON.stringify([r.ok, r.recommended_action, r.warnings, r.reason_codes]);

/**
 * Counts trial calls against the caller's IP and the target host for their UTC day, in the
 * database so every API process agrees (createTrialCounts): the calls of one event-loop turn
 * share one statement, up to `batchMax` of them, and are judged as if they had come one after
 * another in call order. Every call counts against its IP. A call answered from the 300 s cache
 * costs the host nothing; any other counts against the host's share for the client's network
 * (HOST_CALLS_PER_NETWORK), then against the host's 50 (decision 0027). A call refused for the IP
 * never touches the host's counts. Resolves with the URL's cached answer (the offer, once
 * stored), undefined on a miss; rejects with TrialLimitExceeded.
 */
export function createTrialQuota(
  handle: Pick<DbHandle, "db" | "prepared">,
  { batchMax = TRIAL_BATCH_MAX, perHostPerNetwork = HOST_CALLS_PER_NETWORK }: { batchMax?: number; perHostPerNetwork?: number } = {},
): (call: TrialCall, now: Date) => Promise<PreflightReport | undefined> {
  const count = createTrialCounts<PreflightReport>(handle, {
    perIpPerDay: TRIAL.perIpPerDay,
    perHostPerDay: TRIAL.perHostPerDay,
    perHostPerNetwork,
    cacheSeconds: TRIAL.cacheSeconds,
    batchMax,
  });
  return async (call, now) => {
    const counted = await count({ ...call, net: clientNetwork(call.ip), at: now, verdict: call.offer && verdictOf(call.offer) });
    if (counted.refusedBy) throw new TrialLimitExceeded(counted.refusedBy === "host_net" ? "host_network" : counted.refusedBy, now);
    return counted.answer;
  };
}
