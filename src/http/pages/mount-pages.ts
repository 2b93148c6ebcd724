import type { Hono } from "hono";
import { html } from "hono/html";
import type { AppContext } from "../../context.js";
import type { AppEnv } from "../app-env.js";
import type { PaymentGate } from "../payment/types.js";
import type { AnyRouteDef } from "../registry.js";
import { layout } from "./layout.js";
import { mountLanding } from "./mount-landing.js";
import { routeSections } from "./route-sections.js";
import { specPage } from "./spec-page.js";

interface PageDeps {
  ctx: AppContext;
  routes: readonly AnyRouteDef[];
  gate: PaymentGate | undefined;
}

/** The landing page, /spec, and `GET <route>` reference pages for every paid POST route. */
export function mountPages(app: Hono<AppEnv>, { ctx, routes, gate }: PageDeps): void {
  const base = ctx.config.publicBaseUrl;
  const deps = { base, gate };

  for (const def of routes) {
    if (def.price === null || def.method !== "post") continue;
    app.get(def.path, (c) => c.html(layout(def.title, html`<h1>${def.title}</h1>${routeSections(def, deps)}`)));
  }

  mountLanding(app, { ctx, routes });
  app.get("/spec", (c) => c.html(specPage(routes, deps)));
}
