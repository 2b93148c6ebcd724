import type { MiddlewareHandler } from "hono";
import type { HttpMetrics } from "../metrics.js";
import type { AppEnv } from "../app-env.js";

/** One structured log line and one metrics observation per request. */
export function observe(metrics: HttpMetrics): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const seconds = (performance.now() - started) / 1000;
    // Unmatched paths share one label so scanners cannot blow up the metric cardinality.
    const route = c.get("routeId") ?? (c.res.status === 404 ? "not_found" : c.req.routePath);
    const labels = { route, method: c.req.method, status: String(c.res.status) };
    metrics.requests.inc(labels);
    metrics.duration.observe(labels, seconds);
    c.get("log").info(
      { method: c.req.method, path: c.req.path, route, status: c.res.status, ms: Math.round(seconds * 1e4) / 10, ip: c.get("clientIp") },
      "request",
    );
  };
}
