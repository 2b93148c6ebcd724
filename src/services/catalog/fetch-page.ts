import { setTimeout as sleep } from "node:timers/promises";
import { request, type Dispatcher } from "undici";
import { rateLimitWaitMs, RATE_LIMIT_RETRIES } from "./backoff.js";

export interface FetchJsonOptions {
  timeoutMs: number;
  maxBytes: number;
  /** Aborts the request when the ingester stops. */
  signal?: AbortSignal | undefined;
  /** The SSRF-guarded agent for addresses a catalog names (origin manifests); operator-configured sources go direct. */
  dispatcher?: Dispatcher | undefined;
}

/** Why one page could not be had; the message goes to logs and catalog_polls.error. */
export class PageFetchError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    /** The Retry-After header of a 429 or 503, as sent. */
    readonly retryAfter?: string | string[],
  ) {
    super(message);
    this.name = "PageFetchError";
  }
}

// Leaving the loop early (the throw) makes the iterator destroy the body and its socket.
async function readCapped(body: AsyncIterable<Buffer>, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) throw new PageFetchError(`response larger than ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

// Reads and drops a small body (or gives up on a big one) so the connection can be reused.
const discard = (body: { dump(opts?: { limit: number }): Promise<void> }) => void body.dump({ limit: 64 * 1024 }).catch(() => undefined);

/**
 * GETs one catalog page as JSON within a time and size budget. Redirects are not followed:
 * a catalog source is operator configuration and should name its final address.
 */
export async function fetchJson(url: string, opts: FetchJsonOptions): Promise<unknown> {
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout;
  try {
    const res = await request(url, {
      method: "GET",
      headers: { accept: "application/json" },
      signal,
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
      ...(opts.dispatcher ? { dispatcher: opts.dispatcher } : {}),
    });
    if (res.statusCode < 200 || res.statusCode > 299) {
      discard(res.body);
      const where = res.statusCode >= 300 && res.statusCode < 400 ? ` (redirect to ${String(res.headers.location)} not followed)` : "";
      throw new PageFetchError(`HTTP ${res.statusCode}${where}`, res.statusCode, res.headers["retry-after"]);
    }
    const declared = Number(res.headers["content-length"]);
    if (declared > opts.maxBytes) {
      discard(res.body);
      throw new PageFetchError(`response of ${declared} bytes is larger than ${opts.maxBytes}`);
    }
    const bytes = await readCapped(res.body, opts.maxBytes);
    try {
      return JSON.parse(bytes.toString("utf8"));
    } catch {
      throw new PageFetchError("response is not JSON");
    }
  } catch (err) {
    if (err instanceof PageFetchError) throw err;
    if (opts.signal?.aborted) throw new PageFetchError("ingester stopped");
    if (timeout.aborted) throw new PageFetchError(`no complete answer within ${opts.timeoutMs} ms`);
    throw new PageFetchError(`request failed: ${(err as Error).message}`);
  }
}

export interface FetchPageOptions extends FetchJsonOptions {
  /** performance.now() by which the whole poll must be over; no wait or request runs past it. */
  deadline: number;
}

/**
 * fetchJson for one catalog page, asking again after a 429 as backoff.ts says (Retry-After
 * honoured within bounds); a wait that would run past the deadline, or too many 429s in a row,
 * gives up with the 429, which leaves the poll partial.
 */
export async function fetchPage(url: string, opts: FetchPageOptions): Promise<unknown> {
  for (let refused = 0; ; refused++) {
    const remaining = Math.floor(opts.deadline - performance.now());
    if (remaining <= 0) throw new PageFetchError("poll budget exceeded while rate limited (HTTP 429)", 429);
    try {
      return await fetchJson(url, { ...opts, timeoutMs: Math.min(opts.timeoutMs, remaining) });
    } catch (err) {
      if (!(err instanceof PageFetchError) || err.status !== 429) throw err;
      const waitMs = rateLimitWaitMs(err.retryAfter, Date.now());
      if (refused + 1 >= RATE_LIMIT_RETRIES) throw new PageFetchError(`HTTP 429 ${refused + 1} times in a row`, 429);
      if (performance.now() + waitMs >= opts.deadline) throw new PageFetchError(`HTTP 429, Retry-After of ${waitMs} ms runs past the poll budget`, 429);
      try {
        await sleep(waitMs, undefined, { signal: opts.signal });
      } catch {
        throw new PageFetchError("ingester stopped");
      }
    }
  }
}
