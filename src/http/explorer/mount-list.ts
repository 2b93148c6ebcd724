import type { Context } from "hono";
import type { AppContext } from "../../context.js";
import type { ListQuery } from "../../services/index.js";
import type { App, AppEnv } from "../app-env.js";
import { layout, type Html } from "../pages/layout.js";
import { html } from "hono/html";
import { cacheHeaders } from "./cache.js";
import { badQueryPage, listPage, tooManyPage } from "./list-page.js";
import { costsToken, parseListQuery } from "./list-query.js";
import { providerPage } from "./provider-page.js";
import { createSearchLimit } from "./search-limit.js";
import { servicePage } from "./service-page.js";

/**
 * GET /endpoints, /providers/{id} and /services/{id}. The query string is checked before any
 * read (400 page), then searches, filters and deep pages are rate-limited per client (429 page).
 */
export function mountExplorerList(app: App, { ctx }: { ctx: AppContext }): void {
  const explorer = ctx.services.explorer;
  const limit = createSearchLimit(ctx.clock);

  /** The checked query, or the answer refusing it. */
  const admit = async (c: Context<AppEnv>): Promise<ListQuery | Response> => {
    const parsed = parseListQuery(c.req.query());
    if (!parsed.ok) return c.html(badQueryPage(parsed.message), 400, cacheHeaders("error"));
    const wait = costsToken(parsed.query) ? limit(c.get("clientIp")) : 0;
    if (wait > 0) return c.html(tooManyPage(wait), 429, { ...cacheHeaders("error"), "retry-after": String(wait) });
    return parsed.query;
  };
  const missing = (c: Context<AppEnv>, what: string) =>
    c.html(
      layout(`Unknown ${what}`, html`<h1>Unknown ${what}</h1><p>No ${what} has this id. <a href="/endpoints">Browse the endpoints</a>.</p>`),
      404,
      cacheHeaders("error"),
    );
  const page = (c: Context<AppEnv>, body: Html) => c.html(body, 200, cacheHeaders("list"));

  app.get("/endpoints", async (c) => {
    const q = await admit(c);
    return q instanceof Response ? q : page(c, listPage(q, await explorer.list(q)));
  });
  app.get("/providers/:id", async (c) => {
    const q = await admit(c);
    if (q instanceof Response) return q;
    const p = await explorer.provider(c.req.param("id"), q);
    return p ? page(c, providerPage(q, p)) : missing(c, "provider");
  });
  app.get("/services/:id", async (c) => {
    const q = await admit(c);
    if (q instanceof Response) return q;
    const s = await explorer.service(c.req.param("id"), q);
    return s ? page(c, servicePage(q, s)) : missing(c, "service");
  });
}
