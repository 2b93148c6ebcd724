import { Hono } from "hono";
import { CATALOG_DEFAULT_LIMIT, CATALOG_MAX_LIMIT, CATALOG_PATH } from "../constants.js";
import type { CatalogStore } from "./catalog-store.js";

const WHOLE = /^\d+$/;

/**
 * The demo Bazaar: GET /discovery/resources?type=http&limit=N&offset=M in the x402 Bazaar
 * discovery format. A limit above the maximum is capped (the page says which limit applied);
 * a limit or offset that is not a whole number is refused with 400.
 */
export function catalogApp(store: CatalogStore, origin: string): Hono {
  const app = new Hono();
  app.get(CATALOG_PATH, (c) => {
    const rawLimit = c.req.query("limit");
    const rawOffset = c.req.query("offset");
    if ((rawLimit !== undefined && (!WHOLE.test(rawLimit) || Number(rawLimit) < 1)) || (rawOffset !== undefined && !WHOLE.test(rawOffset))) {
      return c.json({ error: "invalid_request", message: "limit must be a whole number >= 1 and offset a whole number >= 0" }, 400);
    }
    const limit = Math.min(CATALOG_MAX_LIMIT, rawLimit === undefined ? CATALOG_DEFAULT_LIMIT : Number(rawLimit));
    const offset = rawOffset === undefined ? 0 : Number(rawOffset);
    c.header("cache-control", "no-store");
    return c.json(store.page({ type: c.req.query("type"), limit, offset }));
  });
  app.get("/", (c) => c.json({ name: "x402 Lookout demo Bazaar", discovery: `${origin}${CATALOG_PATH}` }));
  return app;
}
