import { createHash, timingSafeEqual } from "node:crypto";
import { Hono } from "hono";
import type { AppContext } from "../context.js";
import type { AppEnv } from "./app-env.js";
import { createReadinessProbe } from "./readiness.js";

type OperationsApp = Pick<Hono<AppEnv>, "get">;

/**
 * /healthz (liveness), /readyz (readiness, with each check's reason) and /metrics, free and
 * unattributed. With ADMIN_PORT set /metrics is served only there (createAdminApp), never on
 * the API port; with METRICS_TOKEN it answers only that bearer token.
 */
export function mountOperations(app: OperationsApp, ctx: AppContext, opts: { metrics?: boolean } = {}): void {
  const ready = createReadinessProbe(ctx);
  app.get("/healthz", (c) => {
    const state = ctx.readiness.snapshot();
    const live = ctx.readiness.ready;
    return c.json({ status: live ? "ok" : "starting", ...state }, live ? 200 : 503);
  });
  app.get("/readyz", async (c) => {
    const report = await ready();
    c.header("cache-control", "no-store");
    return c.json({ status: report.ready ? "ready" : "not_ready", checks: report.checks }, report.ready ? 200 : 503);
  });
  if (!(opts.metrics ?? ctx.config.admin === undefined)) return;
  const allowed = bearerCheck(ctx.config.metricsToken);
  app.get("/metrics", async (c) => {
    if (!allowed(c.req.header("authorization"))) {
      c.header("www-authenticate", 'Bearer realm="metrics"');
      return c.json({ error: "unauthorized", message: "/metrics needs Authorization: Bearer <METRICS_TOKEN>" }, 401);
    }
    c.header("content-type", ctx.metrics.contentType);
    return c.body(await ctx.metrics.metrics());
  });
}

/** The admin listener's app (ADMIN_PORT): operations only, nothing of the API. */
export function createAdminApp(ctx: AppContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  mountOperations(app, ctx, { metrics: true });
  app.notFound((c) => c.json({ error: "not_found", message: "the admin listener serves /metrics, /healthz and /readyz" }, 404));
  return app;
}

/** Constant-time: both sides hashed to one length first, so neither content nor length leaks. */
function bearerCheck(token: string | undefined): (header: string | undefined) => boolean {
  if (token === undefined) return () => true;
  const want = createHash("sha256").update(token).digest();
  return (header) => {
    const given = /^Bearer (.+)$/i.exec(header?.trim() ?? "")?.[1] ?? "";
    return timingSafeEqual(createHash("sha256").update(given).digest(), want);
  };
}
