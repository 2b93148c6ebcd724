import type { MiddlewareHandler } from "hono";
import { CLIENT_CLOSED_REQUEST, clientGone } from "../client-abort.js";
import type { HttpMetrics } from "../metrics.js";
import type { AppEnv } from "../app-env.js";
import { QuotaExceeded } from "../../services/errors.js";

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** One structured log line and one metrics observation per request. */
export function observe(metrics: HttpMetrics): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const seconds = (performance.now() - started) / 1000;
    // Unmatched paths share one label so scanners cannot blow up the metric cardinality.
    const route = c.get("routeId") ?? (c.res.status === 404 ? "not_found" : c.req.routePath);
    // A client that left is counted apart from answers it never received (and from outages).
    const aborted = clientGone(c);
    const status = aborted ? CLIENT_CLOSED_REQUEST : c.res.status;
    const labels = { route, method: c.req.method, status: String(status) };
    metrics.requests.inc(labels);
    metrics.duration.observe(labels, seconds);
    if (c.error instanceof QuotaExceeded) metrics.quotaRefusals.inc({ route, scope: c.error.scope });
    // The route pattern, never the path: path parameters are bearer tokens (credit ids). An
    // unmatched path is logged with anything shaped like such an id masked.
    const path = route === "not_found" ? c.req.path.replace(UUID, ":id") : c.req.routePath;
    const line = { method: c.req.method, path, route, status, ms: Math.round(seconds * 1e4) / 10, ip: c.get("clientIp") };
    c.get("log").info(line, aborted ? "client aborted" : "request");
  };
}
