import type { Hono } from "hono";
import type { AppEnv } from "../app-env.js";

export const FAVICON_PATH = "/favicon.svg";

/** A lookout's lens over an x402 "402": drawn in SVG, so one file serves every size and scheme. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<style>.b{fill:#0969da}.r{stroke:#0969da}@media (prefers-color-scheme:dark){.b{fill:#4493f8}.r{stroke:#4493f8}}</style>
<circle class="r" cx="13" cy="13" r="9.5" fill="none" stroke-width="3"/><path class="b" d="M19.6 21.7l2.1-2.1 8 8-2.1 2.1z"/>
<text class="b" x="13" y="16.5" font-family="system-ui,sans-serif" font-size="9" font-weight="700" text-anchor="middle">402</text></svg>`;

/**
 * GET /favicon.svg, linked from every page (the pages' policy allows images from 'self'), and
 * /favicon.ico, which browsers ask for on their own, sent there. Kept a day: it never changes per request.
 */
export function mountFavicon(app: Hono<AppEnv>): void {
  const cache = "public, max-age=86400";
  app.get(FAVICON_PATH, (c) => c.body(FAVICON_SVG, 200, { "content-type": "image/svg+xml; charset=utf-8", "cache-control": cache }));
  app.get("/favicon.ico", (c) => c.redirect(FAVICON_PATH, 301));
}
