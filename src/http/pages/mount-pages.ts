import type { Hono } from "hono";
import type { AppContext } from "../../context.js";
import type { AppEnv } from "../app-env.js";
import type { PaymentGate } from "../payment/types.js";
import type { AnyRouteDef } from "../registry.js";
import { mountFavicon } from "./favicon.js";
import { mountLanding } from "./mount-landing.js";
import { referencePage } from "./route-sections.js";
import { specPage } from "./spec-page.js";

interface PageDeps {
  ctx: AppContext;
  routes: readonly AnyRouteDef[];
  gate: PaymentGate | undefined;
}

/** The landing page, /spec, the favicon, and `GET <route>` reference pages for every POST route (the free trial too). */
export function mountPages(app: Hono<AppEnv>, { ctx, routes, gate }: PageDeps): void {
  const base = ctx.config.publicBaseUrl;
  const deps = { base, gate };

  for (const def of routes) {
    if (def.method !== "post") continue;
    app.get(def.path, (c) => c.html(referencePage(def, deps)));
  }

  mountLanding(app, { ctx, routes });
  mountFavicon(app);
  app.get("/spec", (c) => c.html(specPage(routes, deps)));
}
