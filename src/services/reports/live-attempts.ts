import type { ProbeRecord } from "../evidence/index.js";
import { LIVE_PROBE } from "../signals/index.js";

/** What one live request needs from its surroundings: a way to send, the host's budget, the clock. */
export interface AttemptPlan {
  /** Methods in the order they are tried (methodsFor). */
  methods: readonly string[];
  send(method: string, timeoutMs: number): Promise<ProbeRecord>;
  /** Takes one request from the target host's budget; false when it is spent. */
  take(): Promise<boolean>;
  /** Milliseconds left of the live probe's budget. */
  left(): number;
}

export interface Attempts {
  result: ProbeRecord;
  method: string;
  /** Failed attempts in a row up to the last: each refusal, network error or 5xx counts; a time-out or a final other answer is one; 0 for a needs_input answer. */
  failedInARow: number;
}

/** The catalog's method first when the URL was ever listed, then POST (most x402 endpoints take it), then GET. */
export const methodsFor = (catalog: string | null): string[] => [...new Set([catalog?.toUpperCase(), "POST", "GET"].filter((m): m is string => !!m))];

/** No answer, or the server failed: worth the one retry. Any other answer says something about the method. */
const unreachable = (r: ProbeRecord) => r.statusCode === null || r.statusCode >= 500;
/** Evidence of a dead URL; a time-out within our short budget may be a slow endpoint, so it only fails once. */
const deadEvidence = (r: ProbeRecord) => unreachable(r) && r.errorKind !== "timeout";

/** The time-out of the next request, or null when too little of the budget is left to send one. */
function timeoutFor(left: number, keepRetry: boolean): number | null {
  if (left < LIVE_PROBE.minAttemptMs) return null;
  const kept = keepRetry ? left - LIVE_PROBE.retryReserveMs : left;
  return kept >= LIVE_PROBE.minAttemptMs ? kept : left;
}

/**
 * Sends requests until one is healthy: another answer (4xx, 3xx, a 402 without a readable
 * challenge) moves to the next method; a network error or 5xx is retried once with the same
 * method, so two in a row make the URL dead. Without a healthy answer, a method answered 400/422
 * (needs_input: the endpoint is up and wants input, decision 0046) is the result, whatever the
 * other methods did. Null when the host's budget allowed no request.
 */
export async function runAttempts(plan: AttemptPlan): Promise<Attempts | null> {
  let last: Attempts | null = null;
  let asked: Attempts | null = null;
  let retried = false;
  let run = 0;
  for (let i = 0; i < plan.methods.length;) {
    const timeoutMs = timeoutFor(plan.left(), !retried);
    if (timeoutMs === null || !(await plan.take())) break;
    const method = plan.methods[i]!;
    const result = await plan.send(method, timeoutMs);
    run = deadEvidence(result) ? run + 1 : 0;
    last = { result, method, failedInARow: result.outcome === "healthy" || result.outcome === "needs_input" ? 0 : Math.max(run, 1) };
    if (result.outcome === "healthy") return last;
    if (result.outcome === "needs_input") asked ??= last;
    if (!unreachable(result)) i++;
    else if (retried) break;
    else retried = true;
  }
  return asked ?? last;
}
