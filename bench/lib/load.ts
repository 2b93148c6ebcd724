import autocannon, { type Request, type Result } from "autocannon";

export interface LoadSpec {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  /** Builds each request's body (and may set headers). */
  body?: () => string;
  perRequestHeaders?: () => Record<string, string>;
  seconds: number;
  connections: number;
  /** A total rate in requests per second (autocannon overallRate: each second's requests go out as a burst, see paced-load.ts); unset: as fast as possible. */
  rate?: number;
}

/** One autocannon run; bounded in time, loopback only. */
export function load(spec: LoadSpec): Promise<Result> {
  const u = new URL(spec.url);
  return autocannon({
    url: u.origin,
    connections: spec.connections,
    duration: spec.seconds,
    ...(spec.rate ? { overallRate: spec.rate } : {}),
    requests: [
      {
        method: spec.method ?? "POST",
        path: u.pathname,
        headers: { "content-type": "application/json", ...spec.headers },
        setupRequest: (req: Request) => ({
          ...req,
          ...(spec.body ? { body: spec.body() } : {}),
          headers: { ...req.headers, ...(spec.perRequestHeaders?.() ?? {}) },
        }),
      },
    ],
  });
}

export const summary = (name: string, r: Result) =>
  `${name}: ${r.requests.average.toFixed(0)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, 2xx ${r["2xx"]}, non-2xx ${r.non2xx}, errors ${r.errors}`;
