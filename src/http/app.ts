import { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import type { MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { Context } from "hono";
import type { AppContext } from "../context.js";
import { DeadlineExceededError, isTransient } from "../lib/transient-errors.js";
import { DomainError } from "../services/errors.js";
import type { App, AppEnv } from "./app-env.js";
import { CLIENT_CLOSED_REQUEST, isClientAbort } from "./client-abort.js";
import { ApiError, errorBody, paymentFields, toApiError } from "./errors.js";
import { MAX_BODY_BYTES } from "./input.js";
import { createHttpMetrics } from "./metrics.js";
import { observe } from "./middleware/observe.js";
import { requestContext } from "./middleware/request-context.js";
import { mountRoute } from "./mount.js";
import { registerOpenApi } from "./openapi.js";
import { pagePolicy } from "./pages/csp.js";
import { mountPages } from "./pages/mount-pages.js";
import type { PaymentGate } from "./payment/types.js";
import type { AnyRouteDef } from "./registry.js";
import { mountOperations } from "./operations.js";
import { mountDiscovery } from "./discovery/mount-discovery.js";
import { mountExplorer } from "./explorer/mount-explorer.js";

export interface AppOptions {
  ctx: AppContext;
  routes: readonly AnyRouteDef[];
  gate?: PaymentGate;
  validateResponses?: boolean;
}

export type { App } from "./app-env.js";

/** Middleware order: request context, observation, body limit, the pages' Content-Security-Policy, then routes and pages. */
export function createApp({ ctx, routes, gate, validateResponses = false }: AppOptions): App {
  const app = new OpenAPIHono<AppEnv>();
  app.use(requestContext(ctx.log, ctx.config.trustProxy));
  app.use(observe(createHttpMetrics(ctx.metrics)));
  app.use(limitBody());
  app.use(pagePolicy(ctx.config.publicBaseUrl));

  for (const def of routes) mountRoute(app, def, { ctx, gate, validateResponses });
  registerOpenApi(app, ctx.config.publicBaseUrl, routes);
  mountOperations(app, ctx);
  mountPages(app, { ctx, routes, gate });
  mountDiscovery(app, { ctx, routes, gate });
  mountExplorer(app, { ctx });

  app.notFound((c) => c.json(errorBody(new ApiError(404, "not_found", `no route for ${c.req.method} ${c.req.path}`), c.get("requestId")), 404));
  app.onError((err, c) => renderError(err, c as Context<AppEnv>));
  return app;
}

function renderError(err: Error, c: Context<AppEnv>): Response {
  // The client left mid-request (its body cut off, or an abort of its signal): nobody to answer,
  // nothing failed. observe() logs and counts it as "client aborted".
  if (isClientAbort(err, c)) {
    c.get("log")?.debug({ err: err.message }, "client aborted; request not finished");
    return c.body(null, CLIENT_CLOSED_REQUEST);
  }
  const apiError = asApiError(err, c);
  const body = errorBody(apiError, c.get("requestId") ?? "unknown");
  if (c.get("paid") && body.payment_settled === undefined) Object.assign(body, paymentFields(apiError.status, c.get("settled") ?? false));
  for (const [k, v] of Object.entries(apiError.headers)) c.header(k, v);
  return c.json(body, apiError.status);
}

function asApiError(err: Error, c: Context<AppEnv>): ApiError {
  if (err instanceof ApiError) return err;
  // A service's failure: the gate's payment state goes in where the domain error's answer puts it.
  if (err instanceof DomainError) return toApiError(err, c.get("paid") ? { settled: c.get("settled") ?? false } : undefined);
  if (err instanceof HTTPException) {
    const status = err.status as ApiError["status"];
    return new ApiError(status, status === 413 ? "payload_too_large" : "bad_request", err.message || "bad request");
  }
  const log = c.get("log");
  if (isTransient(err)) {
    log?.warn({ err: { message: err.message, code: (err as { code?: string }).code } }, "dependency unavailable");
    return new ApiError(
      503,
      "service_unavailable",
      "a dependency (database or probe pipeline) is unavailable or timed out; retry after the next probe window",
      // Our own deadline messages are safe to show; driver errors may name internal hosts.
      { retry_after_seconds: 30, detail: err instanceof DeadlineExceededError ? err.message : "the database or a dependency did not answer" },
      { "retry-after": "30" },
    );
  }
  log?.error({ err }, "unhandled error");
  return new ApiError(500, "internal_error", "internal error; the request id identifies it in our logs");
}

/**
 * 413 above MAX_BODY_BYTES. A declared Content-Length is judged before anything is read, which
 * keeps @hono/node-server's fast body path (hono's bodyLimit builds a web stream for every
 * body); a body without one (chunked) goes through bodyLimit, which stops reading at the cap.
 */
function limitBody(): MiddlewareHandler<AppEnv> {
  // The rest of the body is not read, so the connection cannot be reused: say so, or a keep-alive
  // client sends its next request on a socket the server is about to drop ("socket hang up").
  const tooLarge = () => new ApiError(413, "payload_too_large", `request body exceeds ${MAX_BODY_BYTES} bytes`, {}, { connection: "close" });
  const streamed = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw tooLarge();
    },
  });
  return async (c, next) => {
    const method = c.req.method;
    if (method === "GET" || method === "HEAD") return next();
    const length = c.req.header("content-length");
    if (length === undefined || c.req.header("transfer-encoding") !== undefined) return streamed(c, next);
    if (Number(length) > MAX_BODY_BYTES) throw tooLarge(); // Node already refused a malformed length
    return next();
  };
}
