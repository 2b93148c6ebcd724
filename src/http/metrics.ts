import { Counter, Histogram, type Registry } from "prom-client";

export interface HttpMetrics {
  requests: Counter<"route" | "method" | "status">;
  duration: Histogram<"route" | "method" | "status">;
}

export function createHttpMetrics(registry: Registry): HttpMetrics {
  return {
    requests: new Counter({
      name: "lookout_http_requests_total",
      help: "HTTP requests by route, method and status",
      labelNames: ["route", "method", "status"],
      registers: [registry],
    }),
    duration: new Histogram({
      name: "lookout_http_request_duration_seconds",
      help: "HTTP request latency by route, method and status",
      labelNames: ["route", "method", "status"],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20],
      registers: [registry],
    }),
  };
}
