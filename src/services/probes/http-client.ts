import { request, type Agent } from "undici";
import { decodedBody, type BodyStream } from "./decode-body.js";
import type { HostLimiter } from "../../lib/host-limiter.js";
import { classifyNetworkError, type NetworkErrorKind } from "./network-error.js";

export interface HttpRequest {
  url: string;
  method: string;
  /** Name-value pairs are sent in their order and spelling (probes/profiles.ts). */
  headers?: Record<string, string> | ReadonlyArray<readonly [string, string]>;
  body?: string;
}

export interface HttpResponse {
  ok: true;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** At most the body cap; `truncated` says whether more was there (or the body failed). */
  body: Buffer;
  truncated: boolean;
  /** Milliseconds from sending to response headers. */
  latencyMs: number;
}

export interface HttpFailure {
  ok: false;
  kind: NetworkErrorKind;
  message: string;
}

export interface HttpClient {
  request(req: HttpRequest): Promise<HttpResponse | HttpFailure>;
}

export interface HttpClientOptions {
  dispatcher: Agent;
  limiter: HostLimiter;
  timeoutMs: number;
  maxBodyBytes: number;
}

/**
 * One outbound request under the politeness limits: no redirects followed (undici's request
 * never follows them), one deadline for connect, headers and body, body read up to the cap and
 * then the stream destroyed. Bodies are decoded as the profiles' accept-encoding allows; the
 * cap counts decoded bytes. Headers are the request's own (probes/profiles.ts): none names us;
 * given as pairs they go out in that order (undici writes host and connection before them).
 */
export function createHttpClient(opts: HttpClientOptions): HttpClient {
  return {
    async request(req) {
      if (!URL.canParse(req.url)) return { ok: false, kind: "other", message: `not a URL: ${req.url}` };
      const host = new URL(req.url).host;
      // On shutdown the limiter rejects this with AcquireAbortedError: the job goes back unrun.
      const release = await opts.limiter.acquire(host);
      const abort = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        abort.abort();
      }, opts.timeoutMs);
      const started = performance.now();
      try {
        const res = await request(req.url, {
          method: req.method as "GET",
          headers: wireHeaders(req.headers),
          body: req.body,
          dispatcher: opts.dispatcher,
          signal: abort.signal,
        });
        const latencyMs = Math.round(performance.now() - started);
        const { body, truncated } = await readCapped(decodedBody(res.body, res.headers["content-encoding"]), opts.maxBodyBytes);
        return { ok: true, status: res.statusCode, headers: res.headers, body, truncated, latencyMs };
      } catch (err) {
        return { ok: false, kind: classifyNetworkError(err, timedOut), message: (err as Error).message ?? String(err) };
      } finally {
        clearTimeout(timer);
        release();
      }
    },
  };
}

/** Pairs as undici's flat raw list, which it writes in their order and spelling. */
function wireHeaders(h: HttpRequest["headers"]): Record<string, string> | string[] | undefined {
  if (h === undefined || !Array.isArray(h)) return h as Record<string, string> | undefined;
  return (h as ReadonlyArray<readonly [string, string]>).flatMap(([name, value]) => [name, value]);
}

async function readCapped(stream: BodyStream, cap: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of stream) {
      if (size + chunk.length > cap) {
        chunks.push(chunk.subarray(0, cap - size));
        size = cap;
        truncated = true;
        break;
      }
      chunks.push(chunk);
      size += chunk.length;
    }
  } catch {
    // The status and headers already arrived; a body that fails midway is just cut short.
    truncated = true;
  }
  if (truncated) stream.destroy();
  return { body: Buffer.concat(chunks, size), truncated };
}
