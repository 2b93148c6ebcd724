import type { Context } from "hono";
import { etag } from "hono/etag";
import { html } from "hono/html";
import type { AppContext } from "../../context.js";
import type { App, AppEnv } from "../app-env.js";
import { SVG_SECURITY_HEADERS } from "../discovery/badge-svg.js";
import { layout } from "../pages/layout.js";
import { BADGE_KINDS, endpointBadge, unknownBadge, type BadgeKind } from "./badges.js";
import { cacheHeaders } from "./cache.js";
import { endpointPage } from "./endpoint-page.js";

/** A listing id as the database numbers them: digits, no leading zero, within a safe integer. */
export function parseEndpointId(raw: string): number | null {
  return /^[1-9][0-9]{0,14}$/.test(raw) ? Number(raw) : null;
}

/**
 * GET /endpoints/{id} and its badges /badges/endpoints/{id}/{verdict,uptime,latency}.svg. A
 * malformed id is refused (400) before any read; an unknown one is 404. Badges carry an ETag,
 * so an embedding page revalidates with a 304.
 */
export function mountEndpointPages(app: App, { ctx }: { ctx: AppContext }): void {
  const history = ctx.services.endpointHistory;
  const base = ctx.config.publicBaseUrl.replace(/\/+$/, "");
  const refusal = (c: Context<AppEnv>, status: 400 | 404, title: string, text: string) =>
    c.html(layout(title, html`<h1>${title}</h1><p>${text} <a href="/endpoints">Browse the endpoints</a>.</p>`), status, cacheHeaders("error"));

  app.get("/endpoints/:id", async (c) => {
    const id = parseEndpointId(c.req.param("id"));
    if (id === null) return refusal(c, 400, "Malformed endpoint id", "An endpoint id is a positive whole number.");
    const h = await history.get(id);
    if (!h) return refusal(c, 404, "Unknown endpoint", "No endpoint has this id.");
    return c.html(endpointPage(h, base), 200, cacheHeaders("endpoint"));
  });

  app.use("/badges/endpoints/*", etag());
  const badge = (kind: BadgeKind) => async (c: Context<AppEnv>) => {
    const id = parseEndpointId(c.req.param("id") ?? "");
    const h = id === null ? undefined : await history.get(id);
    if (!h) return c.body(unknownBadge(kind), id === null ? 400 : 404, { ...SVG_SECURITY_HEADERS, ...cacheHeaders("error") });
    return c.body(endpointBadge(kind, h), 200, { ...SVG_SECURITY_HEADERS, ...cacheHeaders("badge") });
  };
  for (const kind of BADGE_KINDS) app.get(`/badges/endpoints/:id/${kind}.svg`, badge(kind));
}
