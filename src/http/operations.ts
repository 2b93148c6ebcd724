import type { Hono } from "hono";
import type { AppContext } from "../context.js";
import type { AppEnv } from "./app-env.js";

/** /healthz for orchestrators and /metrics for Prometheus; both free and unattributed. */
export function mountOperations(app: Hono<AppEnv>, ctx: AppContext): void {
  app.get("/healthz", (c) => {
    const state = ctx.readiness.snapshot();
    const ready = ctx.readiness.ready;
    return c.json({ status: ready ? "ok" : "starting", ...state }, ready ? 200 : 503);
  });
  app.get("/metrics", async (c) => {
    c.header("content-type", ctx.metrics.contentType);
    return c.body(await ctx.metrics.metrics());
  });
}
