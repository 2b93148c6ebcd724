/** What an RPC error asks of the caller: wait and retry, read a smaller range, or give up. */
export type RpcFailure = "rate_limited" | "range_too_large" | "other";

const RATE = /\b429\b|rate.?limit|too many requests|exceeded .*capacity/i;
const RANGE =
  /block range|range (is )?too (large|wide|big)|more than \d+ (results|logs)|query returned more|response size|response body exceeded|too many (results|logs)|max(imum)? (block )?range|limit exceeded/i;

/** Reads an error from viem (its message and causes, its status or JSON-RPC code). */
export function classifyRpcError(err: unknown): RpcFailure {
  for (let e: unknown = err, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const { status, code, message, details } = e as { status?: number; code?: number; message?: string; details?: string };
    const text = `${message ?? ""} ${details ?? ""}`;
    if (status === 429 || RATE.test(text)) return "rate_limited";
    if (code === -32005 || code === -32602 || RANGE.test(text)) return RANGE.test(text) || code === -32005 ? "range_too_large" : "other";
  }
  return "other";
}

/**
 * Spaces requests to at most `perSecond` and retries rate-limited ones with exponential back-off
 * (up to `maxWaitMs` between tries); other failures go to the caller, which may split a range.
 */
export function createPacer(perSecond: number, sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms)), maxWaitMs = 30_000) {
  const gapMs = 1000 / perSecond;
  let next = 0;
  async function slot(): Promise<void> {
    const now = Date.now();
    const at = Math.max(now, next);
    next = at + gapMs;
    if (at > now) await sleep(at - now);
  }
  return async function paced<T>(request: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      await slot();
      try {
        return await request();
      } catch (err) {
        if (classifyRpcError(err) !== "rate_limited" || attempt >= 8) throw err;
        await sleep(Math.min(maxWaitMs, 250 * 2 ** attempt));
      }
    }
  };
}
