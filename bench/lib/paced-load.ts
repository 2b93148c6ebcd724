import { Pool } from "undici";

export interface PacedSpec {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  /** Builds each request's body. */
  body?: () => string;
  /** Requests per second, sent evenly spaced. */
  rate: number;
  seconds: number;
  /** Keep-alive connections the requests may use (more are queued, and their wait counts). */
  connections: number;
  /** Each request's path and query (default: the url's), and headers added to `headers`. */
  next?: () => { path: string; headers?: Record<string, string> };
}

export interface PacedResult {
  requests: number;
  ok: number;
  non2xx: number;
  errors: number;
  /** Milliseconds from when each request was due to when its whole answer had arrived. */
  latency: { p50: number; p90: number; p99: number; max: number };
}

/**
 * Open-loop load at an even rate: request i is due at start + i / rate and is sent when due,
 * whatever the earlier ones are doing; its latency counts from when it was due, so a stalled
 * service or a late timer shows in the figure (no coordinated omission).
 *
 * autocannon's `overallRate` is not this: each connection sends its share of a second's
 * requests back to back at the start of the second and then waits for the next one
 * (httpClient.js resets `reqsMadeThisSecond` on a 1,000 ms interval), so 1,000 req/s arrive as
 * one burst at the full speed of the service every second, and its p99 is that of a saturated
 * burst (docs/decisions/0013-paced-load-for-fixed-rate-latency.md).
 */
export async function pacedLoad(spec: PacedSpec): Promise<PacedResult> {
  const u = new URL(spec.url);
  const pool = new Pool(u.origin, { connections: spec.connections });
  const total = Math.round(spec.rate * spec.seconds);
  const interval = 1000 / spec.rate;
  const latencies = new Float64Array(total);
  const result = { requests: total, ok: 0, non2xx: 0, errors: 0 };
  const headers = { "content-type": "application/json", ...spec.headers };
  const start = performance.now();
  let sent = 0;
  let done = 0;
  try {
    await new Promise<void>((resolve) => {
      const send = (i: number) => {
        const due = start + i * interval;
        const own = spec.next?.();
        pool
          .request({ path: own?.path ?? u.pathname, method: spec.method ?? "POST", headers: { ...headers, ...own?.headers }, body: spec.body?.() })
          .then(async (res) => {
            await res.body.dump();
            if (res.statusCode < 300) result.ok++;
            else result.non2xx++;
          })
          .catch(() => result.errors++)
          .finally(() => {
            latencies[i] = performance.now() - due;
            if (++done === total) resolve();
          });
      };
      const tick = () => {
        const due = Math.min(total, Math.floor((performance.now() - start) / interval) + 1);
        while (sent < due) send(sent++);
        if (sent < total) setTimeout(tick, Math.max(0, start + sent * interval - performance.now()));
      };
      tick();
    });
  } finally {
    await pool.close();
  }
  latencies.sort();
  const at = (q: number) => round(latencies[Math.min(total - 1, Math.ceil(q * total) - 1)]!);
  return { ...result, latency: { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: round(latencies[total - 1]!) } };
}

const round = (ms: number) => Math.round(ms * 100) / 100;

export const pacedSummary = (name: string, r: PacedResult, rate: number) =>
  `${name}: ${r.requests} requests at ${rate} req/s evenly spaced, p50 ${r.latency.p50} ms, p90 ${r.latency.p90} ms, p99 ${r.latency.p99} ms, max ${r.latency.max} ms, 2xx ${r.ok}, non-2xx ${r.non2xx}, errors ${r.errors}`;
